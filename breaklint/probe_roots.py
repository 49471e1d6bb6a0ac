"""What the probes compile, read from their source: each probe's callable as a dotted name.

A probe returns `(callable, args[, kwargs])`, and the dynamic phase compiles that callable, so
it is a compile root even when nothing in the linted tree compiles it (a function, or a method
other than `forward`). This follows, with `ast` and no import, what a probe returns: through
local and module-level names, tuples, the probe file's own functions and those of modules
beside it (the folder a probe runs from is first on `sys.path`), to a dotted name that names
something outside them: `pkg.audio.mel` (a function), `pkg.model.Whisper()` (an instance of the
class: its `forward`), `pkg.model.Whisper().embed` (a method of an instance). What it cannot
follow (a parameter, a factory's return value, a dictionary) it leaves out: the static scope
then misses only what the probes' dynamic phase still reports.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from breaklint.knowledge.curated import MODULE_RETURNS_SELF
from breaklint.knowledge.tensor_facts import TENSOR_FACTORIES
from breaklint.source import read_regular

PREFIX = "probe_"  # a probe is a module-level function named so, in a probe file

RETURNS_SELF = MODULE_RETURNS_SELF
PARTIAL = "functools.partial"
INSTANCE = "()"  # in a dotted name: what calling the name before it returned
# The kinds of the arguments a probe passes (`ProbeRoot.arguments`).
PYTHON = "python"  # a number, string or bool written in the probe
TENSOR = "tensor"  # what a torch factory made (`torch.randn(4, 5)`)
OBJECT = "instance:"  # and the class: an instance of it (`ReplayMemory(32)`)
_MAX_DEPTH = 12  # calls and names followed; deeper is unknown


@dataclass(frozen=True, slots=True)
class _Outside:
    """Something named outside the probes' own files, as a dotted name where `()` marks what
    a call returned: `pkg.f`, `pkg.Model()` (an instance), `pkg.Model().encode` (its method)."""

    dotted: str

    @property
    def called(self) -> bool:
        return INSTANCE in self.dotted


@dataclass(frozen=True, slots=True)
class _Function:
    module: _SourceFile
    node: ast.FunctionDef | ast.Lambda
    closure: _Locals | None = None  # a lambda's: the names of the function it is made in


@dataclass(frozen=True, slots=True)
class _Items:
    """A tuple or list: a probe's callable is its first item; `arguments`, the kinds of
    what a written tuple or list second passes it (None: not read)."""

    first: tuple[_Value, ...]
    arguments: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class _Module:
    """A module beside the probes, as a value (`import model` then `model.step`): no
    callable itself, but its attributes are its top-level names."""

    source: _SourceFile


_Value = _Outside | _Function | _Items | _Module
_Locals = dict[str, list[tuple[int, ast.expr | None]]]  # name -> (line, value) bindings


@dataclass(eq=False, slots=True)
class _SourceFile:
    """A probe file or a module beside it: its top-level names."""

    path: str
    dotted: str  # its module name, from the probes' folder
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: set[str] = field(default_factory=set)
    assigned: dict[str, ast.expr] = field(default_factory=dict)  # the last top-level value


def _read(path: str, dotted: str) -> _SourceFile | None:
    try:
        tree = ast.parse(read_regular(path), filename=path)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    found = _SourceFile(path, dotted)
    for node in _module_statements(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found.imports[alias.asname] = alias.name
                else:
                    head = alias.name.partition(".")[0]
                    found.imports[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.FunctionDef):
            found.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            found.classes.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.assigned[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and node.value and isinstance(node.target, ast.Name):
            found.assigned[node.target.id] = node.value
    return found


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements a module runs at its top level, also those under a `try` or an `if`
    there (`try: from model import Net` around a patch, `except ImportError:` a fallback).
    What a later statement binds replaces what an earlier one did, so the way that runs
    when nothing fails (a `try`'s body, `else` and `finally`; an `if`'s body) comes after the
    other (its handlers; its `else`), and decides."""
    for node in body:
        if isinstance(node, ast.Try | ast.TryStar):
            for handler in node.handlers:
                yield from _module_statements(handler.body)
            yield from _module_statements([*node.body, *node.orelse, *node.finalbody])
        elif isinstance(node, ast.If):
            yield from _module_statements(node.orelse)
            yield from _module_statements(node.body)
        else:
            yield node


class _Reader:
    """Evaluates expressions of the probe files to the values above, memoising files."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.files: dict[str, _SourceFile | None] = {}
        self.partials = 0  # the `functools.partial` calls read: they bind arguments first

    def source(self, path: str) -> _SourceFile | None:
        if path not in self.files:
            relative = os.path.relpath(os.path.splitext(path)[0], self.folder)
            dotted = relative.replace(os.sep, ".").removesuffix(".__init__")
            self.files[path] = _read(path, dotted)
        return self.files[path]

    def beside(self, dotted: str) -> tuple[_SourceFile, list[str]] | None:
        """The module beside the probes that `dotted` starts with, and the names after it."""
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            base = os.path.join(self.folder, *parts[:cut])
            for path in (f"{base}.py", os.path.join(base, "__init__.py")):
                if os.path.isfile(path):
                    module = self.source(path)
                    return (module, parts[cut:]) if module is not None else None
        return None

    def dotted(self, dotted: str, depth: int) -> list[_Value]:
        found = self.beside(dotted)
        if found is None:
            return [_Outside(dotted)]
        module, names = found
        if not names:
            return [_Module(module)]
        values = self.name(module, names[0], depth)
        for attribute in names[1:]:
            values = [v for value in values for v in self.attribute(value, attribute, depth)]
        return values

    def name(self, module: _SourceFile, name: str, depth: int) -> list[_Value]:
        if name in module.functions:
            return [_Function(module, module.functions[name])]
        if name in module.classes:  # linted too, when the tree holds it
            return [_Outside(f"{module.dotted}.{name}")]
        if name in module.assigned:
            return self.value(module, module.assigned[name], {}, depth + 1)
        if name in module.imports:
            return self.dotted(module.imports[name], depth + 1)
        return []

    def attribute(self, value: _Value, attribute: str, depth: int) -> list[_Value]:
        if isinstance(value, _Module):
            return self.name(value.source, attribute, depth + 1)
        if not isinstance(value, _Outside):
            return []
        if value.called:
            return [_Outside(f"{value.dotted}.{attribute}")]
        return self.dotted(f"{value.dotted}.{attribute}", depth + 1)

    def value(
        self, module: _SourceFile, node: ast.expr, local: _Locals, depth: int
    ) -> list[_Value]:
        """What `node` may evaluate to, in a function whose last assignments are `local`."""
        if depth > _MAX_DEPTH:
            return []
        if isinstance(node, ast.Tuple | ast.List):
            if not node.elts:
                return []
            partials = self.partials
            first = tuple(self.value(module, node.elts[0], local, depth + 1))
            arguments = None
            if self.partials == partials and len(node.elts) > 1:
                arguments = self.arguments(module, node.elts[1], local, depth + 1)
            return [_Items(first, arguments)]
        if isinstance(node, ast.Name):
            if node.id in local:
                # The binding before this use: `model = model.eval()` reads the one above.
                before = [v for line, v in local[node.id] if line < node.lineno] or [None]
                bound = before[-1]
                return [] if bound is None else self.value(module, bound, local, depth + 1)
            return self.name(module, node.id, depth + 1)
        if isinstance(node, ast.Attribute):
            bases = self.value(module, node.value, local, depth + 1)
            return [v for base in bases for v in self.attribute(base, node.attr, depth + 1)]
        if isinstance(node, ast.Lambda):
            return [_Function(module, node, local)]
        if isinstance(node, ast.IfExp):  # `m.train() if train else m.eval()`: either
            body = self.value(module, node.body, local, depth + 1)
            return body + self.value(module, node.orelse, local, depth + 1)
        if isinstance(node, ast.Call):
            called = self.value(module, node.func, local, depth + 1)
            if node.args and any(
                isinstance(f, _Outside) and f.dotted == PARTIAL for f in called
            ):  # `partial(f, ...)` calls `f`
                self.partials += 1
                return self.value(module, node.args[0], local, depth + 1)
            return [v for function in called for v in self.called(function, depth + 1)]
        return []

    def arguments(
        self, module: _SourceFile, node: ast.expr, local: _Locals, depth: int
    ) -> tuple[str, ...] | None:
        """The kinds of the arguments a written tuple or list (or a name bound to one)
        passes, "" where unknown; None for anything else."""
        node = self.bound(module, node, local, depth)
        if not isinstance(node, ast.Tuple | ast.List):
            return None
        if any(isinstance(item, ast.Starred) for item in node.elts):
            return None
        return tuple(self.kind(module, item, local, depth + 1) for item in node.elts)

    def bound(self, module: _SourceFile, node: ast.expr, local: _Locals, depth: int) -> ast.expr:
        """What a name is bound to before its use (itself where that cannot be read)."""
        while isinstance(node, ast.Name) and depth < _MAX_DEPTH:
            depth += 1
            if node.id in local:
                before = [v for line, v in local[node.id] if line < node.lineno] or [None]
                if before[-1] is None:
                    return node
                node = before[-1]
            elif node.id in module.assigned:
                module_local: _Locals = {}
                node = module.assigned[node.id]
                local = module_local
            else:
                return node
        return node

    def kind(self, module: _SourceFile, node: ast.expr, local: _Locals, depth: int) -> str:
        """What an argument a probe passes is: `PYTHON`, `TENSOR`, `OBJECT` and the class,
        or "" (unknown)."""
        node = self.bound(module, node, local, depth)
        if isinstance(node, ast.Constant):
            value = node.value
            return PYTHON if isinstance(value, bool | int | float | complex | str) else ""
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
            return self.kind(module, node.operand, local, depth + 1)  # `-1`
        if not isinstance(node, ast.Call) or depth > _MAX_DEPTH:
            return ""
        made = {
            v.dotted[: -len(INSTANCE)]
            for v in self.value(module, node, local, depth + 1)
            if isinstance(v, _Outside)
            and v.dotted.endswith(INSTANCE)
            and v.dotted.count(INSTANCE) == 1
        }
        if len(made) != 1:
            return ""
        dotted = made.pop()  # `torch.randn(4)`, also `torch.randn(4).to(device)`
        torch, _, function = dotted.partition(".")
        return TENSOR if torch == "torch" and function in TENSOR_FACTORIES else OBJECT + dotted

    def compiled(
        self, values: Sequence[_Value], depth: int = 0, arguments: tuple[str, ...] | None = None
    ) -> Iterator[tuple[str, tuple[str, ...] | None]]:
        """The dotted names of what compiling a probe's callable traces first, each with the
        kinds of the arguments it is passed (None: not known): a lambda's (`lambda x:
        model.decode(x)`) are what its body calls."""
        for value in values:
            if isinstance(value, _Items):
                yield from self.compiled(value.first, depth, value.arguments)
            elif isinstance(value, _Outside):
                yield value.dotted, arguments
            elif isinstance(value, _Module):
                continue  # a module is no callable
            elif isinstance(value.node, ast.FunctionDef):  # linted too, when the tree holds it
                yield f"{value.module.dotted}.{value.node.name}", arguments
            elif depth < _MAX_DEPTH:
                lambda_ = value.node
                for call in ast.walk(lambda_.body):
                    if isinstance(call, ast.Call):
                        closure = value.closure or {}
                        called = self.value(value.module, call.func, closure, depth + 1)
                        yield from self.compiled(called, depth + 1)

    def called(self, function: _Value, depth: int) -> list[_Value]:
        """What calling `function` returns, where that can be read."""
        if isinstance(function, _Function):
            return self.returned(function, depth)
        if not isinstance(function, _Outside):
            return []
        if not function.called:
            return [_Outside(function.dotted + INSTANCE)]  # an instance, when it is a class
        owner, _, method = function.dotted.rpartition(".")
        return [_Outside(owner)] if method in RETURNS_SELF and INSTANCE in owner else []

    def returned(self, function: _Function, depth: int) -> list[_Value]:
        node = function.node
        if isinstance(node, ast.Lambda):
            return self.value(function.module, node.body, function.closure or {}, depth + 1)
        local = _local_values(node)
        return [
            value
            for returned in _returns(node)
            for value in self.value(function.module, returned, local, depth + 1)
        ]


def _own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of functions or classes nested in it."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(node))


def _returns(function: ast.FunctionDef) -> list[ast.expr]:
    return [
        node.value
        for node in _own_nodes(function)
        if isinstance(node, ast.Return) and node.value is not None
    ]


def _local_values(function: ast.FunctionDef) -> _Locals:
    """Each local name's bindings by line: a plain assignment's value, or None for a binding
    that cannot be read (a parameter, a loop, `with ... as`)."""
    bound: _Locals = {}
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        bound[argument.arg] = [(0, None)]
    read: set[ast.Name] = set()  # targets whose value is read
    for node in _own_nodes(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append((node.lineno, node.value))
                read.add(target)
    for node in _own_nodes(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node not in read:
            bound.setdefault(node.id, []).append((node.lineno, None))
    for bindings in bound.values():
        bindings.sort(key=lambda binding: binding[0])
    return bound


def probe_files(paths: Sequence[str]) -> tuple[list[tuple[str, bool]], list[str]]:
    """The probe files under `paths`, each with whether it was named explicitly (a folder's
    .py files are not), and the paths that do not exist."""
    files: list[tuple[str, bool]] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            files.append((path, True))
        elif os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "__")))
                files += [
                    (os.path.join(folder, n), False) for n in sorted(names) if n.endswith(".py")
                ]
        else:
            missing.append(path)
    return files, missing


def probe_callers(paths: Sequence[str]) -> tuple[str, ...]:
    """The Python files of the folders the probes under `paths` run from, sorted: the probe
    files and the modules beside them (their builders). What they pass to the linted tree's
    constructors is what the compiled objects hold (`Loss(VariationalELBO(likelihood, ...))`),
    so the static scope reads their calls too."""
    folders = {os.path.dirname(os.path.abspath(path)) for path, _ in probe_files(paths)[0]}
    return tuple(
        sorted(
            os.path.join(folder, name)
            for folder in folders
            for name in os.listdir(folder)
            if name.endswith(".py") and os.path.isfile(os.path.join(folder, name))
        )
    )


# `os.path` functions a probe builds the folders it puts on `sys.path` with, as written.
_PATH_FUNCTIONS: dict[str, Callable[..., str]] = {
    "os.path.join": os.path.join,
    "os.path.dirname": os.path.dirname,
    "os.path.abspath": os.path.abspath,
    "os.path.realpath": os.path.abspath,  # a link in the tree is read where it lies
    "os.path.normpath": os.path.normpath,
}


def probe_search_folders(paths: Sequence[str]) -> tuple[str, ...]:
    """The folders the probe files under `paths` put on `sys.path` at their top level
    (`sys.path.insert(0, os.path.join(ROOT, "src"))`, `sys.path[:0] = [...]`, `append`,
    `extend`), in the order written: a repository whose modules import each other by bare
    names (`from decoder import Decoder`) from folders its scripts put there finds them from
    those folders. A folder built from anything but `__file__`, strings, top-level names and
    `os.path` functions is left out."""
    found: dict[str, None] = {}
    for path, _ in probe_files(paths)[0]:
        try:
            tree = ast.parse(read_regular(path), filename=path)
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue
        names: dict[str, str] = {"__file__": os.path.abspath(path)}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    if (folder := _folder(node.value, names)) is not None:
                        names[target.id] = folder
                elif _is_sys_path(target, slice_only=True):
                    found.update(dict.fromkeys(_folders(node.value, names)))
            elif isinstance(node, ast.AugAssign) and _is_sys_path(node.target):
                found.update(dict.fromkeys(_folders(node.value, names)))
            elif isinstance(node, ast.Expr) and isinstance(call := node.value, ast.Call):
                method = call.func
                if isinstance(method, ast.Attribute) and _is_sys_path(method.value):
                    if method.attr in ("insert", "append") and call.args:
                        found.update(dict.fromkeys(_folders(ast.List([call.args[-1]]), names)))
                    elif method.attr == "extend" and len(call.args) == 1:
                        found.update(dict.fromkeys(_folders(call.args[0], names)))
    return tuple(os.path.normpath(folder) for folder in found)


def _is_sys_path(node: ast.expr, slice_only: bool = False) -> bool:
    """`sys.path`, or with `slice_only` a slice of it (`sys.path[:0]`)."""
    if slice_only:
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Slice)
            and (_is_sys_path(node.value))
        )
    return ast.unparse(node) == "sys.path"


def _folders(node: ast.expr, names: dict[str, str]) -> list[str]:
    """The folders a written list or tuple of paths names."""
    if not isinstance(node, ast.List | ast.Tuple):
        return []
    return [folder for item in node.elts if (folder := _folder(item, names)) is not None]


def _folder(node: ast.expr, names: dict[str, str]) -> str | None:
    """A path built of `__file__`, strings, names bound to such paths and `os.path` calls."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Call) and not node.keywords:
        function = _PATH_FUNCTIONS.get(ast.unparse(node.func))
        parts = [_folder(argument, names) for argument in node.args]
        if function is not None and parts and None not in parts:
            return str(function(*parts))
    return None


@dataclass(frozen=True, slots=True, order=True)
class ProbeRoot:
    """What a probe compiles, as a dotted name: `pkg.f`, `pkg.Model()` (an instance: its
    `forward`), `pkg.Model().encode`; and the folder its probe runs from, where Python starts
    the search for that name's module (`sys.path[0]`, then the folders above it): it tells
    apart two linted scripts of one name (`generate.py` and `moe/generate.py`)."""

    dotted: str
    folder: str
    # The kinds of the positional arguments every probe that compiles it passes (`PYTHON`,
    # `TENSOR`, `OBJECT` and a dotted class; "" where they differ or are unknown).
    arguments: tuple[str, ...] = ()


def _agreed(passed: list[tuple[str, ...] | None]) -> tuple[str, ...]:
    """The kinds every probe agrees on, position by position ("" where they differ); none
    where some probe's are not known."""
    if not passed or any(arguments is None for arguments in passed):
        return ()
    return tuple(kinds[0] if len(set(kinds)) == 1 else "" for kinds in zip(*passed, strict=False))


def probe_roots(paths: Sequence[str]) -> tuple[ProbeRoot, ...]:
    """What the probes under `paths` return to be compiled, sorted, with the kinds of the
    arguments they pass."""
    found: dict[tuple[str, str], list[tuple[str, ...] | None]] = {}
    readers: dict[str, _Reader] = {}
    for path, _ in probe_files(paths)[0]:
        folder = os.path.dirname(os.path.abspath(path))
        reader = readers.setdefault(folder, _Reader(folder))
        module = reader.source(path)
        if module is None:
            continue
        for name, node in module.functions.items():
            if name.startswith(PREFIX) and not _takes_arguments(node):
                compiled = reader.compiled(reader.returned(_Function(module, node), 0))
                for dotted, arguments in compiled:
                    found.setdefault((dotted, folder), []).append(arguments)
    return tuple(
        sorted(
            ProbeRoot(dotted, folder, _agreed(passed)) for (dotted, folder), passed in found.items()
        )
    )


def _takes_arguments(node: ast.FunctionDef) -> bool:
    arguments = node.args
    return bool(arguments.posonlyargs or arguments.args or arguments.kwonlyargs) or bool(
        arguments.vararg or arguments.kwarg
    )
