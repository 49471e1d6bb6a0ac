"""Installed libraries the linted code calls: where their source is, and which of their
modules compiled code reaches.

Dynamo inlines the code of an installed library as it inlines the linted code (measured on
2.13: a function of a package on `sys.path` is "inlined by default" by
`torch._dynamo.trace_rules.check_file`), so a break inside the library breaks the graph at the
linted call that reaches it. The packages Dynamo skips instead (`SKIPPED_LIBRARIES`, numpy)
are not followed: a call into one is a break at the call, which BL503 reports.

A library is found without importing it: the folder of its top-level package (or its module
file) on the running interpreter's `sys.path`, the first that holds it, as Python's import
would find it. torch is never followed (its API is knowledge data), nor the standard library,
nor a top-level package that holds a linted file (the user chose which of its files to lint).
Where the libraries are not installed (pre-commit's isolated environment) nothing is found and
nothing is followed.

`follow` adds a library's modules to the project only as the compiled code reaches them, round
by round: the modules the linted files that reach libraries import from them, then, for each
module added, the modules its classes' bases come from and a name it re-exports is defined in,
and the modules that what the project's scope reaches in it calls (its functions in scope, and
every method of a class one of whose methods is in scope: an attribute that `__init__` builds
is called from `forward`). Each file is read, parsed and indexed at most once per run; its
module is never a compile root of its own (`Project.followed`).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import sysconfig
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from breaklint.index import STAR, FunctionInfo, ModuleIndex, build_index, code_words
from breaklint.knowledge.curated import SKIPPED_LIBRARIES
from breaklint.scope import (
    DefinitionRef,
    Project,
    ScopedFunction,
    ScopeOptions,
    compile_scope,
    reached_from,
    reached_from_roots,
)
from breaklint.source import read_regular

# Never followed: torch's API is knowledge data (functorch and torchgen ship in torch's
# distribution: functorch is `torch.func`'s old name, which Dynamo skips; torchgen generates
# torch's code), numpy is traced through Dynamo's own numpy support, and the packages Dynamo
# skips break at the call.
_NOT_FOLLOWED = frozenset(
    {
        "torch",
        "functorch",
        "torchgen",
        "numpy",
        *(prefix.rstrip(".") for prefix in SKIPPED_LIBRARIES),
    }
)
# Rounds of `follow` at most: each adds the modules the last one's scope reaches.
_MAX_ROUNDS = 64


def _defines(text: bytes, name: str) -> bool:
    """Whether a module's source binds `name` at all: a `class` or `def` of it, an assignment
    to it at the start of a line, or an import naming it (on one line or in parentheses).
    Its mentions in calls, strings and docstrings bind nothing."""
    word = re.escape(name.encode())
    pattern = (
        rb"(?:class|def)\s+%s\b|^[ \t]*%s[ \t]*(?::[^=\n]*)?=(?!=)"
        rb"|\bimport\b[^\n]*\b%s\b|\bimport[ \t]*\([^)]*\b%s\b"
    ) % (word, word, word, word)
    return re.search(pattern, text, re.MULTILINE) is not None


def installed_packages(
    own: Collection[str], search_path: Sequence[str] | None = None
) -> dict[str, str]:
    """The top-level packages and modules on `search_path` (the running interpreter's
    `sys.path` by default) that may be followed, each with the folder that holds it: the first
    folder that does, outside the standard library's, for names that are neither the standard
    library's nor in `own` (the linted tree's) nor never followed."""
    stdlib = {
        os.path.realpath(path)
        for key in ("stdlib", "platstdlib")
        if (path := sysconfig.get_paths().get(key))
    }
    skipped = _NOT_FOLLOWED | set(own) | set(sys.stdlib_module_names)
    found: dict[str, str] = {}
    for folder in sys.path if search_path is None else search_path:
        if not folder or not os.path.isdir(folder) or os.path.realpath(folder) in stdlib:
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            top, extension = os.path.splitext(name)
            if extension not in ("", ".py") or not top.isidentifier() or top in found:
                continue
            if top in skipped or top.startswith("_"):
                continue
            place = os.path.join(folder, name)
            if extension == ".py" or os.path.isfile(os.path.join(place, "__init__.py")):
                found[top] = folder
    return found


def library_path(path: str, module: str) -> str:
    """A library file's path as shown to users: from its top-level package
    (`gpytorch/kernels/kernel.py`), not the folder it is installed in."""
    parts = module.count(".") + (2 if os.path.basename(path) == "__init__.py" else 1)
    return "/".join(os.path.normpath(path).split(os.sep)[-parts:])


def imported_libraries(index: ModuleIndex, packages: Mapping[str, str]) -> list[str]:
    """The dotted names a linted file imports from the `packages` (module level and in its
    functions)."""
    targets = [*index.imports.values()]
    for info in index.functions.values():
        targets.extend(alias.target for alias in info.imports)
    return [target for target in targets if target.partition(".")[0] in packages]


def read_index(path: str, package: list[str]) -> ModuleIndex | None:
    """A library module's index, with its words; None where it cannot be read or parsed."""
    try:
        text = read_regular(path)
        tree = ast.parse(text, filename=path)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    index = build_index(path, tree, package)
    index.words = code_words(text.decode("utf-8", "replace"))
    return index


@dataclass
class Followed:
    """The library modules a run follows: path -> (dotted module name, package parts, index)."""

    packages: Mapping[str, str]  # top-level name -> the folder on sys.path that holds it
    # How a module's file is read into its index, (path, package parts) -> index or None:
    # `read_index`, or the engine's, which keeps each by the file's digest in its cache.
    reader: Callable[[str, list[str]], ModuleIndex | None] = read_index
    modules: dict[str, tuple[str, list[str], ModuleIndex]] = field(default_factory=dict)
    _by_name: dict[str, str | None] = field(default_factory=dict)  # module name -> path
    _asked: set[str] = field(default_factory=set)  # dotted names already followed

    def want(self, dotted: str) -> bool:
        """Add the module that defines `dotted` (`gpytorch.kernels.ScaleKernel`): the longest
        module its name starts with, and where that module only re-exports the name, the module
        it imports it from, and the modules its classes' bases are defined in. Whether a module
        was added."""
        pending = [dotted]
        added = False
        while pending:
            name = pending.pop()
            if name in self._asked or name.partition(".")[0] not in self.packages:
                continue
            self._asked.add(name)
            found = self._module_of(name)
            if found is None:
                continue
            module, path, new = found
            added |= new
            index = self.modules[path][2]
            if new:
                pending.extend(base for cls in index.classes.values() for base in cls.bases)
            rest = name[len(module) + 1 :]
            if rest:
                head = rest.partition(".")[0]
                tail = rest[len(head) :]
                if head in index.imports:  # re-exported: `from .kernel import Kernel`
                    pending.append(index.imports[head] + tail)
                elif head not in index.classes and head not in index.functions:
                    # Only a star import of a module with source: of one without (a compiled
                    # extension) the name would fall back to this module, one part longer
                    # each time, without end.
                    pending.extend(
                        target + "." + rest
                        for key, target in index.imports.items()
                        if key.startswith(STAR) and self._may_define(target, head)
                    )
        return added

    def _module_of(self, dotted: str) -> tuple[str, str, bool] | None:
        """The longest module `dotted` starts with, its path, and whether it is new here."""
        parts = dotted.split(".")
        for size in range(len(parts), 0, -1):
            module = ".".join(parts[:size])
            new = module not in self._by_name
            if new:
                self._by_name[module] = self._load(module)
            path = self._by_name[module]
            if path is not None:
                return module, path, new
        return None

    def _may_define(self, module: str, name: str) -> bool:
        """Whether a star import of `module` may bring `name`: a module of its library with
        source that writes the name, or star-imports in turn. Read as bytes, not parsed: a
        package that star-imports hundreds (transformers' `from .models import *`, each
        model's four) is indexed only along the way to the name, not whole."""
        if module in self._by_name:
            path = self._by_name[module]
            if path is None:
                return False
            index = self.modules[path][2]
            return f" {name} " in f" {index.words} " or any(
                key.startswith(STAR) for key in index.imports
            )
        if module.partition(".")[0] not in self.packages:
            return False
        for path, _ in self._source_files(module):
            try:
                text = read_regular(path)
            except (OSError, ValueError):
                continue
            return b"import *" in text or _defines(text, name)
        return False

    def _source_files(self, module: str) -> tuple[tuple[str, list[str]], ...]:
        """Where `module`'s source would be, each with its package parts: a package's
        `__init__.py`, then a module file."""
        parts = module.split(".")
        base = os.path.join(self.packages[parts[0]], *parts)
        return ((os.path.join(base, "__init__.py"), parts), (base + ".py", parts[:-1]))

    def _load(self, module: str) -> str | None:
        for path, package in self._source_files(module):
            if not os.path.isfile(path):
                continue
            index = self.reader(path, package)
            if index is None:
                return None
            self.modules[path] = (module, package, index)
            return path
        return None

    def indexes(self) -> dict[str, ModuleIndex]:
        return {path: index for path, (_, _, index) in self.modules.items()}

    def names(self) -> dict[str, str]:
        return {path: module for path, (module, _, _) in self.modules.items()}


def follow(
    indexes: dict[str, ModuleIndex],
    module_names: dict[str, str],
    options: ScopeOptions,
    followed: Followed,
    reaching: Collection[str],
) -> tuple[Project, dict[str, list[ScopedFunction]]]:
    """The project of the linted `indexes` with the library modules compiled code reaches
    (added to `followed`), and its scope. `reaching`: the linted files that import from the
    libraries.

    The first round walks what the compile roots reach (`scope.reached_from_roots`: the
    functions `compile_scope` takes in, without building their scopes); a seed round walks
    only from the functions it found in the files in `reaching` into the modules followed:
    the calls of the other linted functions name no library. After a seed round adds modules,
    the rounds walk only from the functions first reached in the last round that name a
    library (a call of a name they import, a base of their class: what a module added may
    resolve), and on through what no walk since the seed round has walked; once these add
    none, a seed round walks again (a call whose target changed otherwise: an attribute
    holding a library's object) and ends the rounds where it adds none, as before: the
    seeds' calls, all resolved again in each new project, were most of each round's cost.
    The project the rounds end with gets its scope once, and is checked as the first round
    was: should its scope reach a library module not followed yet (a library's method that
    calls back into the linted code, a library function passed to a linted one), the rounds
    go on."""
    project = _project(indexes, module_names, options, followed)
    rounds = 0
    while True:
        # By path: a module's key may change as modules of the same name join.
        seeds = {
            (path, qualname)
            for path, qualnames in _by_path(project, reached_from_roots(project, options)).items()
            if path in reaching
            for qualname in qualnames
        }
        while rounds < _MAX_ROUNDS:
            starts = {DefinitionRef(project.modules.key_of[p], q) for p, q in seeds}
            reached = _by_path(project, reached_from(project, starts, project.followed))
            frontier: set[tuple[str, str]] = set()
            if not _reached_more(project, reached, followed, reaching, frontier):
                break
            rounds += 1
            project = _project(indexes, module_names, options, followed)
            # Then rounds that walk only what may reach the modules just added: the functions
            # that name a library (by an import or a base class), and what they reach that no
            # walk of this round has walked (the seeds' calls, all resolved again in each new
            # project, were most of a round's cost). Once these add none, the seeds are walked
            # again: the calls whose targets changed otherwise (what an attribute holds).
            walked = {
                (path, qualname) for path, qualnames in reached.items() for qualname in qualnames
            }
            frontier = {
                (path, qualname)
                for path, qualname in frontier
                if path in followed.modules or (path, qualname) in seeds
            }
            while rounds < _MAX_ROUNDS and frontier:
                key_of = project.modules.key_of
                starts = {DefinitionRef(key_of[path], qualname) for path, qualname in frontier}
                done = {DefinitionRef(key_of[path], qualname) for path, qualname in walked}
                reached = _by_path(project, reached_from(project, starts, project.followed, done))
                new = {
                    (path, qualname)
                    for path, qualnames in reached.items()
                    for qualname in qualnames
                    if (path, qualname) not in walked
                }
                walked |= new
                naming: set[tuple[str, str]] = set()
                if not _reached_more(project, reached, followed, reaching, naming):
                    break
                # Those named the first time here; of the linted files', only the seeds (the
                # others' calls are not walked).
                frontier = {
                    (path, qualname)
                    for path, qualname in naming & new
                    if path in followed.modules or (path, qualname) in seeds
                }
                rounds += 1
                project = _project(indexes, module_names, options, followed)
        scoped = compile_scope(project, options)
        in_scope = {path: {f.qualname for f in functions} for path, functions in scoped.items()}
        if rounds >= _MAX_ROUNDS or not _reached_more(project, in_scope, followed, reaching):
            return project, scoped
        rounds += 1
        project = _project(indexes, module_names, options, followed)


def _project(
    indexes: dict[str, ModuleIndex],
    module_names: dict[str, str],
    options: ScopeOptions,
    followed: Followed,
) -> Project:
    return Project(
        {**indexes, **followed.indexes()},
        {**module_names, **followed.names()},
        options.search_folders,
        frozenset(followed.modules),
    )


def _by_path(project: Project, refs: Collection[DefinitionRef]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for ref in refs:
        found.setdefault(project.by_module[ref.module].path, set()).add(ref.qualname)
    return found


def _reached_more(
    project: Project,
    reached: Mapping[str, Collection[str]],
    followed: Followed,
    reaching: Collection[str],
    naming: set[tuple[str, str]] | None = None,
) -> bool:
    """Add the library modules that what the walk reached (qualnames by path) in the linted
    files that import from libraries and in the followed modules calls or derives from: its
    functions, and every method of a class one of whose methods it reached (`__init__` builds
    what `forward` calls); whether one was added. Into `naming`: the functions reached that
    name a library, by an import they call or a base of their class (whose calls a module
    added may resolve)."""
    added = False
    # In a fixed order (not a set's, which PYTHONHASHSEED changes): the order modules join
    # decides the keys of modules of the same name, and so what calls resolve to.
    for path, functions in sorted(reached.items()):
        if path not in followed.modules and path not in reaching:
            continue
        module = project.modules.key_of[path]
        index = project.by_module[module]
        classes = {q.rpartition(".")[0] for q in functions if "." in q}
        names = set(functions)
        names.update(q for q in index.functions if q.rpartition(".")[0] in classes)
        for cls in sorted(classes & index.classes.keys()):
            for base in index.classes[cls].bases:
                added |= followed.want(base)
                if naming is not None and base.partition(".")[0] in followed.packages:
                    naming.update((path, q) for q in functions if q.rpartition(".")[0] == cls)
        for qualname in sorted(names):
            info = project.function(DefinitionRef(module, qualname))
            if info is not None:
                added |= _want_callees(followed, index, info)
                if (
                    naming is not None
                    and qualname in functions
                    and _names_library(followed, index, info)
                ):
                    naming.add((path, qualname))
    return added


def _names_library(followed: Followed, index: ModuleIndex, info: FunctionInfo) -> bool:
    """Whether the function calls a name it imports from a library that may be followed."""
    return any(
        target.partition(".")[0] in followed.packages for target in _imported_callees(index, info)
    )


def _want_callees(followed: Followed, index: ModuleIndex, info: FunctionInfo) -> bool:
    """Add the library modules that define what the function calls by an imported name
    (`gplib.ScaleKernel()`, `cholesky(a)` after `from gplib.linalg import safe_cholesky as
    cholesky`); whether one was added."""
    added = False
    for target in _imported_callees(index, info):
        added |= followed.want(target)
    return added


def _imported_callees(index: ModuleIndex, info: FunctionInfo) -> Iterator[str]:
    """What the function calls by an imported name (its own imports first, then the
    module's), as the dotted name it imports."""
    local = {alias.name: alias.target for alias in info.imports}
    for callee in info.callees:
        written = callee.partition("(")[0]
        head = written.partition(".")[0]
        target = local.get(head) or index.imports.get(head)
        if target is not None:
            yield target + written[len(head) :]
