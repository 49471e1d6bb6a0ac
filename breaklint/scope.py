"""Compile scope: which functions `torch.compile` really traces.

Roots are `forward` methods of `nn.Module` subclasses, functions compiled by decorator or by
`torch.compile(fn)` (or `torch._dynamo.optimize(...)(fn)`, or a local instance's method),
registered hooks, and what the probes given compile; scope is everything reachable from them
through calls that resolve inside the linted tree.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from breaklint.index import (
    REDEFINED,
    STAR,
    VERSION,
    FunctionInfo,
    HookRegistration,
    ImportAlias,
    ModuleIndex,
    label,
    passes_own_keywords,
    tuple_items,
    unversioned,
)
from breaklint.knowledge.curated import (
    AUTOGRAD_FUNCTION_TRACED,
    CACHED_PROPERTY,
    COMPILING_CHECKS,
    FALSE_WHILE_COMPILING,
    SUBCLASSED_CONTEXT_MANAGERS_SKIPPED,
    TYPED_DICTS,
    UNCALLABLE_SUBCLASSED,
)
from breaklint.modules import ModuleTable
from breaklint.probe_roots import OBJECT
from breaklint.syntax import expand_import

if TYPE_CHECKING:  # a run without probes does not import their reader
    from breaklint.probe_roots import ProbeRoot

COMPILING_DECORATORS = frozenset(
    {"torch.compile", "torch.compiler.compile", "torch._dynamo.optimize"}
)
DISABLING_DECORATORS = frozenset({"torch.compiler.disable", "torch._dynamo.disable"})
# Well-known nn.Module subclasses outside torch.nn, recognised by their class name.
MODULE_BASE_NAMES = frozenset({"LightningModule", "PreTrainedModel", "ModelMixin"})
# `torch.autograd.Function` as a base however it is imported (`autograd.Function`, `Function`).
AUTOGRAD_FUNCTION_BASE = "Function"
NOT_A_BASE = frozenset({"object", "typing.Generic", "typing.Protocol", "abc.ABC"})
SUPER = "super()"  # the head of `super().method` as the index writes it
_MAX_DEPTH = 6  # values followed through calls, attributes and parameters; deeper is unknown
_RETURNED_ELEMENT = re.compile(r"e(\d)c([^;]+);")  # `a, b = f(x)`'s `b`: `e1cf;`
_MAX_CALLERS = 32  # a parameter's callers followed, at most (see `_parameter_targets`)
_NO_CYCLE = 1 << 62  # no cycle reached a value being found (`Project._found_once`)
_Found = TypeVar("_Found")  # what `Project._found_once` finds: call targets, or classes


@dataclass(frozen=True, slots=True)
class Scope:
    """Why a function is compiled: it is the compile root `root` (`Encoder.forward`), or calls
    from that root reach it, or (no root) `--scope all` takes every function in."""

    root: str | None
    reached: bool = False

    def label(self) -> str:
        """How reporters show it: `Encoder.forward`, `reached from Encoder.forward`."""
        if self.root is None:
            return "scope = all"
        return f"reached from {self.root}" if self.reached else self.root


EVERYTHING = Scope(None)


@dataclass(frozen=True, slots=True)
class ScopedFunction:
    qualname: str
    start_line: int
    scope: Scope
    root: bool = False  # a compile root: its parameters are the traced tensors
    disabled_calls: tuple[str, ...] = ()  # callees as written that are compiler-disabled
    # Check only the functions nested in it with these names (all of them when empty): the
    # wrapper a decorator returns, or a `forward` a function installs, runs under Dynamo;
    # the outer body runs once, when the class is made. None: the whole function.
    inner_only: tuple[str, ...] | None = None
    guard_calls: tuple[str, ...] = ()  # callees as written that are true while compiling
    false_calls: tuple[str, ...] = ()  # and those that are false (`Project.compiling_answer`)
    tensor_calls: tuple[str, ...] = ()  # callees as written that return tensors
    # `self.<name>` reads as written that run a `functools.cached_property` getter of a class
    # whose instances compiled code makes: each new instance computes it while compiling.
    cached_reads: tuple[str, ...] = ()
    registrations: tuple[HookRegistration, ...] = ()  # where this hook is registered, same file
    # What the project-wide analysis (`breaklint.analysis`) knows: "name=kind" for parameters
    # its callers decide, "callee=kind" for what project calls return (a kind, or
    # "tuple:kind,kind"), "attribute=kind" for `self.<attribute>` tensors and containers, and
    # the callees as written that reach project code (not torch's methods of the same name).
    parameter_kinds: tuple[str, ...] = ()
    call_kinds: tuple[str, ...] = ()
    attribute_kinds: tuple[str, ...] = ()
    project_calls: tuple[str, ...] = ()
    # "name=class" for the module-level objects (here or imported) whose methods it calls
    # and Dynamo cannot trace, or traces as draws (`knowledge.curated.UNTRACEABLE_OBJECT_METHODS`,
    # `TRACED_DRAW_METHODS`).
    held_objects: tuple[str, ...] = ()
    # "callee=base" for the calls as written that make an instance of a project class Dynamo
    # cannot enter in a `with`, for the torch or standard-library class it derives from
    # (`Project.unenterable_base`).
    unenterable_calls: tuple[str, ...] = ()
    # "callee=certain CODE path:line" (or "=maybe") for the calls as written that reach a
    # function that breaks the graph (`breaklint.call_breaks`), and the break it rests on.
    breaking_calls: tuple[str, ...] = ()
    # "callee=certain WHAT path:line CODE message" (or "=maybe") for the calls as written that
    # reach only functions of an installed library (`breaklint.dependencies`) of which one
    # breaks, naming the library's function and its first break (`breaklint.call_breaks`).
    dependency_breaks: tuple[str, ...] = ()
    # Those of them that call a method of a local holding an object this function makes
    # (`solver = Euler(); solver.integrate(y)`, `Project.holds_new_object`).
    new_object_calls: tuple[str, ...] = ()
    # The constructor calls as written (`Stepper`, `solvers.Euler`) of project classes whose
    # instances hold bound methods of their own on attributes (`Project.holds_own_methods`).
    method_holders: tuple[str, ...] = ()
    # The constructor calls as written of project TypedDicts with optional keys
    # (`Project.makes_optional_keys`).
    optional_key_dicts: tuple[str, ...] = ()
    # The constructor calls as written of project subclasses of a class Dynamo cannot call
    # subclassed (`Project.uncallable_base`), each with that base: "CALL=BASE".
    uncallable_calls: tuple[str, ...] = ()
    module_method: bool = False  # a method of an `nn.Module` class: its `self` is a module
    # For an `__init__` of an `nn.Module` class: "certain CLASS WHY" (or "maybe ...") where
    # compiled code makes an instance that runs it eagerly, as a frame of its own
    # (`checker.eager_inits`): WHY, the caller's frame skip or the break while making it.
    eager_init: str = ""
    # For a metaclass's `__call__` that calls `super().__call__`: "certain CLASS WHY" (or
    # "maybe ...") where compiled code makes an instance of CLASS that runs eagerly, so that
    # Dynamo compiles this `__call__` as a frame of its own (`checker.eager_inits`).
    eager_call: str = ""
    # For a function compiled code calls from a frame that runs eagerly (a break skips the
    # caller's frame): "certain WHY" (or "maybe WHY"); Dynamo compiles it as a frame of its
    # own (`checker.eager_inits`).
    eager_frame: str = ""


def eager_making(text: str) -> tuple[bool, str, str]:
    """`ScopedFunction.eager_init` or `eager_call` read back: whether the eager making is
    certain, the class made, and why it runs eagerly."""
    certainty, _, rest = text.partition(" ")
    cls, _, why = rest.partition(" ")
    return certainty == "certain", cls, why


class DefinitionRef(NamedTuple):
    """A function or class defined in the linted tree, by module and qualified name. A named
    tuple, not a dataclass: the analysis hashes hundreds of thousands of them, and a tuple's
    hash and equality run in C, a frozen dataclass's in Python."""

    module: str  # module name in the project
    qualname: str


@dataclass(frozen=True, slots=True)
class Root:
    """A function `torch.compile` traces first, and the label findings inside it carry."""

    ref: DefinitionRef
    label: str
    inner_only: tuple[str, ...] | None = None  # see ScopedFunction.inner_only


# A read of `self.<name>` in an attribute's summary (`index.summarise`): "d" for a dotted name.
_SELF_READ = re.compile(r"dself\.(\w+);")


def _strip_call(dotted: str) -> str:
    return dotted.removesuffix("()")


class Project:
    """The linted tree as a whole: modules, by key (`breaklint.modules`), mapped to their
    indexes."""

    def __init__(
        self,
        indexes: dict[str, ModuleIndex],
        module_names: dict[str, str],
        search_folders: tuple[str, ...] = (),
        followed: frozenset[str] = frozenset(),
    ) -> None:
        self.modules = ModuleTable({path: module_names[path] for path in indexes}, search_folders)
        self.by_module = {self.modules.key_of[path]: index for path, index in indexes.items()}
        # The modules of installed libraries the linted code calls (`breaklint.dependencies`):
        # in scope only where linted code reaches them, never compile roots of their own.
        self.followed = frozenset(self.modules.key_of[path] for path in followed)
        self._targets: dict[tuple[str, str, str], tuple[Target, ...]] = {}
        self._attributes: dict[DefinitionRef, dict[str, list[tuple[DefinitionRef, str]]]] = {}
        self._constructed: dict[tuple[str, tuple[ImportAlias, ...], str], DefinitionRef | None] = {}
        self._bases: dict[DefinitionRef, list[DefinitionRef]] = {}
        self._local_bindings: dict[tuple[str, str], dict[str, str]] = {}
        self._methods: dict[tuple[str, str, str], DefinitionRef | None] = {}
        self._is_module_class: dict[DefinitionRef, bool] = {}
        self._answers: dict[DefinitionRef, bool | None] = {}
        self._redefinitions: dict[str, dict[str, list[str]]] = {}  # per module, by first key
        self._lookups: dict[tuple[str | None, str], DefinitionRef | None] = {}
        # Per module, the modules its `from other import *` imports name, in order: a star
        # lookup reads them for each name it is asked, and its imports are mostly not stars.
        self._stars: dict[str, tuple[str, ...]] = {}
        self._resolved: dict[tuple[str, tuple[ImportAlias, ...], str], DefinitionRef | None] = {}
        self._callees: dict[
            tuple[str, str | None, tuple[ImportAlias, ...], str], DefinitionRef | None
        ] = {}
        self._sites: dict[DefinitionRef, list[CallSite]] = {}
        self._calls_by_name: dict[str, list[tuple[str, FunctionInfo, str]]] | None = None
        self._resolved_names: set[str] = set()
        # Calls of a local that may hold a class (`solver = solver_class(bm)`), resolved to
        # the classes' constructors when a constructor's callers are first asked about.
        self._local_calls: list[tuple[str, FunctionInfo, str]] | None = []
        self._subclasses: dict[DefinitionRef, list[DefinitionRef]] | None = None
        # Values followed, by value and the depth each was asked at (what is left of
        # `_MAX_DEPTH` decides what is found): `_found_once`.
        self._held: dict[tuple[object, ...], list[Target]] = {}
        self._passed_targets: dict[tuple[object, ...], list[Target]] = {}
        self._passed_classes: dict[tuple[object, ...], list[DefinitionRef]] = {}
        # The values being found, by their place on the stack of those found within each
        # other, and the answers found while a value further down that stack was asked for
        # again, kept until that value is found.
        self._finding: dict[tuple[object, ...], int] = {}
        # What the probes pass to the roots they compile (`roots`): by root, each parameter's
        # kind ("python", "tensor", or "instance:" and the class's `DefinitionRef` module and
        # qualified name joined by ":"), where every probe agrees.
        self.probe_arguments: dict[DefinitionRef, dict[str, str]] = {}
        self._cycle_to = _NO_CYCLE
        self._provisional: list[tuple[dict[tuple[object, ...], Any], tuple[object, ...]]] = []
        self._drop_dead_callees()

    def _drop_dead_callees(self) -> None:
        """Forget the calls a function makes only in branches Dynamo never takes, which only
        the project decides (`if is_tracing():` of a helper returning
        `torch._C._get_tracing_state()`): they reach nothing and pass nothing. The indexes are
        copied, not changed: the cache keeps what each file says alone."""
        for module, index in list(self.by_module.items()):
            dropped = {}
            for qualname, info in index.functions.items():
                if not info.guarded_callees:
                    continue
                live: set[str] = set()
                guarded: set[str] = set()
                for entry in info.guarded_callees:
                    callee, *guards = entry.split("\t")
                    guarded.add(callee)
                    if not any(self._dead_guard(module, info, guard) for guard in guards):
                        live.add(callee)
                dead = guarded - live
                if dead:
                    dropped[qualname] = replace(
                        info,
                        callees=tuple(c for c in info.callees if c not in dead),
                        blocked_callees=tuple(c for c in info.blocked_callees if c not in dead),
                        calls=tuple(c for c in info.calls if c.partition(" ")[0] not in dead),
                    )
            if dropped:
                self.by_module[module] = replace(index, functions={**index.functions, **dropped})

    def _dead_guard(self, module: str, info: FunctionInfo, guard: str) -> bool:
        """Whether a guard of `FunctionInfo.guarded_callees` rules its branch out."""
        answer = self._formula_answer(module, info, guard[1:], 0)[0]
        return answer is not None and answer is (guard[0] == "1")

    def lookup(
        self, dotted: str, importer: str | None, searched_from: str | None = None
    ) -> DefinitionRef | None:
        """Find `pkg.mod.Name` (or `pkg.mod.Class.method`) defined in the linted tree, as
        the module `importer` imports it (None: from outside the tree, searched from the folder
        `searched_from` when known), following re-exports (`from pkg.b import helper` in
        pkg/a.py), which may form a cycle."""
        # Most names are asked again, from many modules; all of one source root find the same.
        start = searched_from if importer is None else self.modules.root(importer)
        key = (start, dotted)
        if key not in self._lookups:
            self._lookups[key] = None  # a cycle of star imports finds nothing
            self._lookups[key] = self._lookup(dotted, importer, searched_from)
        return self._lookups[key]

    def _lookup(
        self, dotted: str, importer: str | None, searched_from: str | None
    ) -> DefinitionRef | None:
        seen = set()
        while dotted not in seen:
            seen.add(dotted)
            parts = dotted.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module = self.modules.find(".".join(parts[:cut]), importer, searched_from)
                if module is not None:
                    index = self.by_module[module]
                    name = ".".join(parts[cut:])
                    if name in index.classes or name in index.functions:
                        return DefinitionRef(module, name)
                    target = index.imports.get(name)  # re-exported through the module
                    if not target:
                        return self._star_lookup(module, name)
                    dotted, importer = target, module
                    break
            else:
                return None
        return None

    def _star_lookup(self, module: str, name: str) -> DefinitionRef | None:
        """`name` re-exported by `from other import *` in `module`."""
        if "." in name:
            return None
        stars = self._stars.get(module)
        if stars is None:
            imports = self.by_module[module].imports
            stars = self._stars[module] = tuple(
                other for key, other in imports.items() if key.startswith(STAR)
            )
        for other in stars:
            found = self.lookup(f"{other}.{name}", module)
            if found is not None:
                return found
        return None

    def type_alias(self, dotted: str, importer: str) -> tuple[str, str] | None:
        """The module and name of the type alias `pkg.typing.Adj` names in the tree as the
        module `importer` imports it (`Adj = Union[Tensor, SparseTensor]`), following
        re-exports."""
        seen = set()
        while dotted not in seen:
            seen.add(dotted)
            written, _, name = dotted.rpartition(".")
            module = self.modules.find(written, importer)
            if module is None:
                return None
            index = self.by_module[module]
            if name in index.type_aliases:
                return module, name
            dotted, importer = index.imports.get(name, ""), module
        return None

    def resolve_local(
        self, module: str, dotted: str, caller: FunctionInfo | None = None
    ) -> DefinitionRef | None:
        """Resolve a name as written in `module` (in `caller`'s body, when given, where its
        own imports bind names) to a definition in the tree."""
        key = (module, () if caller is None else caller.imports, dotted)
        if key not in self._resolved:
            self._resolved[key] = self._resolve_local(module, dotted, caller)
        return self._resolved[key]

    def _resolve_local(
        self, module: str, dotted: str, caller: FunctionInfo | None
    ) -> DefinitionRef | None:
        index = self.by_module[module]
        head = dotted.partition(".")[0]
        shadowed = caller is not None and any(alias.name == head for alias in caller.imports)
        if not shadowed and (dotted in index.classes or dotted in index.functions):
            return DefinitionRef(module, dotted)
        imports = index.imports if caller is None else caller.import_table(index.imports)
        resolved = expand_import(dotted, imports)
        found = self.lookup(resolved, module) if resolved != dotted or "." in dotted else None
        if found is None and resolved == dotted and not shadowed:
            # A name `from .spline import *` binds: `curve2coef(...)`, `Layer.build(...)`.
            star = self._star_lookup(module, head)
            rest = dotted[len(head) :]
            if star is not None and rest:
                member = DefinitionRef(star.module, star.qualname + rest)
                known = (
                    self.function(member) or member.qualname in self.by_module[star.module].classes
                )
                return member if known else None
            if star is not None:
                return star
        return found

    def definitions(self, ref: DefinitionRef) -> list[DefinitionRef]:
        """`ref` and the later definitions of the same function in its module (`if ...: def f
        ... else: def f ...`): which one runs is decided when the module runs."""
        module = ref.module
        if module not in self._redefinitions:
            found: dict[str, list[str]] = {}
            for qualname in self.by_module[module].functions:
                owner, _, name = qualname.rpartition(".")
                if REDEFINED in name:
                    first = ".".join(filter(None, [owner, name.partition(REDEFINED)[0]]))
                    found.setdefault(first, []).append(qualname)
            self._redefinitions[module] = found
        later = self._redefinitions[module].get(ref.qualname, [])
        return [ref, *(DefinitionRef(module, qualname) for qualname in later)]

    def is_module_class(self, ref: DefinitionRef) -> bool:
        known = self._is_module_class.get(ref)
        if known is not None:
            return known
        self._is_module_class[ref] = False  # cycle guard
        cls = self.by_module[ref.module].classes[ref.qualname]
        unresolved = False
        result = False
        for base in cls.bases:
            base = _strip_call(base)
            if base.startswith("torch.nn.") or base.rpartition(".")[2] in MODULE_BASE_NAMES:
                result = True
                break
            base_ref = self.resolve_local(ref.module, base)
            if (
                base_ref is not None
                and base_ref.qualname in self.by_module[base_ref.module].classes
            ):
                if self.is_module_class(base_ref):
                    result = True
                    break
            elif base not in NOT_A_BASE and not base.startswith("torch."):
                unresolved = True  # torch classes outside torch.nn are known not to be modules
        # A class with `forward` deriving from something we cannot see is almost always a module.
        result = result or (unresolved and "forward" in cls.methods)
        self._is_module_class[ref] = result
        return result

    def base_classes(self, ref: DefinitionRef) -> list[DefinitionRef]:
        """The class and its project base classes, nearest first (an approximate MRO)."""
        known = self._bases.get(ref)
        if known is None:
            known = self._bases[ref] = self._base_classes(ref)
        return known

    def _base_classes(self, ref: DefinitionRef) -> list[DefinitionRef]:
        order, queue, seen = [], deque([ref]), set()
        while queue:
            current = queue.popleft()
            if current in seen:
                continue
            seen.add(current)
            order.append(current)
            for base in self.by_module[current.module].classes[current.qualname].bases:
                base_ref = self.resolve_local(current.module, _strip_call(base))
                if base_ref and base_ref.qualname in self.by_module[base_ref.module].classes:
                    queue.append(base_ref)
        return order

    def function(self, ref: DefinitionRef) -> FunctionInfo | None:
        return self.by_module[ref.module].functions.get(ref.qualname)

    def metaclass_call(self, cls: DefinitionRef) -> DefinitionRef | None:
        """The project metaclass `__call__` that making an instance of `cls` runs (the
        metaclass of the nearest class on the way that names one, its nearest `__call__`),
        where it calls `super().__call__(...)` (or `super(Meta, cls).__call__`)."""
        for owner in self.base_classes(cls):
            written = self.by_module[owner.module].classes[owner.qualname].metaclass
            if written is None:
                continue
            meta = self.resolve_local(owner.module, _strip_call(written))
            if meta is None or meta.qualname not in self.by_module[meta.module].classes:
                return None
            for holder in self.base_classes(meta):
                call = DefinitionRef(holder.module, f"{holder.qualname}.__call__")
                info = self.function(call)
                if info is not None:
                    return call if "super().__call__" in info.callees else None
            return None
        return None

    def unenterable_base(self, cls: DefinitionRef) -> str | None:
        """The torch or standard-library context manager a project class derives from whose
        subclasses Dynamo cannot enter in a `with` (`SUBCLASSED_CONTEXT_MANAGERS_SKIPPED`), if
        any: for some only where the base's own `__enter__` runs, that is, unless the nearest
        `__enter__` of a project class on the way does not call `super().__enter__()`."""
        chain = self.base_classes(cls)
        enters = (self.function(DefinitionRef(c.module, f"{c.qualname}.__enter__")) for c in chain)
        nearest = next((enter for enter in enters if enter is not None), None)
        base_enter_runs = nearest is None or "super().__enter__" in nearest.callees
        for current in chain:
            for base in self.by_module[current.module].classes[current.qualname].bases:
                needs_enter = SUBCLASSED_CONTEXT_MANAGERS_SKIPPED.get(_strip_call(base))
                if needs_enter is not None and (base_enter_runs or not needs_enter):
                    return _strip_call(base)
        return None

    def uncallable_base(self, cls: DefinitionRef) -> str | None:
        """The class `cls` derives from (itself or through project bases) whose subclasses
        Dynamo cannot make (`knowledge.curated.UNCALLABLE_SUBCLASSED`), if any."""
        for current in self.base_classes(cls):
            for base in self.by_module[current.module].classes[current.qualname].bases:
                if _strip_call(base) in UNCALLABLE_SUBCLASSED:
                    return _strip_call(base)
        return None

    def makes_optional_keys(self, cls: DefinitionRef) -> bool:
        """Whether `cls` is a TypedDict with optional keys, declared by it or by a base: Dynamo
        cannot make one (`knowledge.curated.TYPED_DICTS`)."""
        chain = [self.by_module[c.module].classes[c.qualname] for c in self.base_classes(cls)]
        typed = any(_strip_call(base) in TYPED_DICTS for info in chain for base in info.bases)
        return typed and any(info.optional_keys for info in chain)

    def holds_own_methods(self, cls: DefinitionRef) -> bool:
        """Whether an `__init__` of the class `cls` or of its project bases sets an attribute
        to a bound method of the instance (`self.step = self.euler`, one of several under an
        `if`): Dynamo cannot rebuild such an object made while tracing (BL209). A property
        read there (`self.size = self.doubled`) gives a value, not a method."""
        classes = self.base_classes(cls)
        for owner in classes:
            init = self.function(DefinitionRef(owner.module, f"{owner.qualname}.__init__"))
            if init is None:
                continue
            for summary in init.attributes:
                for name in _SELF_READ.findall(summary):
                    method = self.method(cls.module, cls.qualname, name)
                    info = None if method is None else self.function(method)
                    if info is not None and not info.decorators:
                        return True
        return False

    def method(self, module: str, class_name: str, name: str) -> DefinitionRef | None:
        key = (module, class_name, name)
        if key not in self._methods:
            self._methods[key] = None
            for cls in self.base_classes(DefinitionRef(module, class_name)):
                candidate = DefinitionRef(cls.module, f"{cls.qualname}.{name}")
                if self.function(candidate) is not None:
                    self._methods[key] = candidate
                    break
        return self._methods[key]

    def subclasses(self, cls: DefinitionRef) -> list[DefinitionRef]:
        """The project subclasses of a class, at any depth."""
        if self._subclasses is None:
            self._subclasses = {}
            for owner, index in self.by_module.items():
                for qualname in index.classes:
                    sub = DefinitionRef(owner, qualname)
                    for base in self.base_classes(sub)[1:]:
                        self._subclasses.setdefault(base, []).append(sub)
        return self._subclasses.get(cls, [])

    def overrides(self, module: str, caller: FunctionInfo, callee: str) -> list[DefinitionRef]:
        """What `self.f(x)` (or `cls.f(x)`) in `caller` reaches besides the method its class
        resolves: `self` may be an instance of a subclass, whose override runs instead. Scope
        follows them all; the analysis and the callee summaries those of an abstract method
        only (`replacing_overrides`)."""
        head, _, name = _strip_call(callee).partition(".")
        class_name = caller.class_name
        if head not in ("self", "cls") or not name or "." in name or class_name is None:
            return []
        return [
            DefinitionRef(sub.module, f"{sub.qualname}.{name}")
            for sub in self.subclasses(DefinitionRef(module, class_name))
            if name in self.by_module[sub.module].classes[sub.qualname].methods
        ]

    def replacing_overrides(
        self, module: str, caller: FunctionInfo, callee: str
    ) -> list[DefinitionRef]:
        """The overrides `self.f(x)` in `caller` runs where the method its class resolves is
        abstract (`@abstractmethod`, a body that raises `NotImplementedError`), or where the
        class and its project bases neither define nor assign `f` (a base that leaves the
        method to its subclasses without a stub): one of them always runs instead, with the
        call's arguments. A concrete method's overrides are left to scope: passing the
        call's arguments and breaks to every override of a method a class hierarchy refines
        made findings on the tuning libraries false."""
        if not callee.startswith(("self.", "cls.")):
            return []
        own = self.resolve_callee(module, caller, callee)
        if own is None:
            name = _strip_call(callee).partition(".")[2]
            class_name = caller.class_name
            if class_name is None or self.attribute_summaries(module, class_name, name):
                return []
            return self.overrides(module, caller, callee)
        info = self.function(own)
        if info is None or not info.abstract:
            return []
        return self.overrides(module, caller, callee)

    def inherited(self, module: str, class_name: str, name: str) -> DefinitionRef | None:
        """The method `super().<name>` reaches in a method of the class: its project bases'."""
        for cls in self.base_classes(DefinitionRef(module, class_name))[1:]:
            found = self.method(cls.module, cls.qualname, name)
            if found is not None:
                return found
        return None

    def resolve_callee(
        self, module: str, caller: FunctionInfo, callee: str
    ) -> DefinitionRef | None:
        """The function a call in `caller` reaches, when it is defined in the tree."""
        key = (module, caller.class_name, caller.imports, callee)
        if key not in self._callees:
            self._callees[key] = self._resolve_callee(module, caller, callee)
        return self._callees[key]

    def _resolve_callee(
        self, module: str, caller: FunctionInfo, callee: str
    ) -> DefinitionRef | None:
        callee = _strip_call(callee)
        head, _, rest = callee.partition(".")
        if head in ("self", "cls") and caller.class_name and rest and "." not in rest:
            return self.method(module, caller.class_name, rest)
        if head == SUPER and caller.class_name and rest and "." not in rest:
            return self.inherited(module, caller.class_name, rest)
        ref = self.resolve_local(module, callee, caller)
        if ref is not None and ref.qualname in self.by_module[ref.module].classes:
            ref = self.constructor(ref)
        if ref is None or self.function(ref) is None:
            return None
        return ref

    def constructor(self, cls: DefinitionRef) -> DefinitionRef | None:
        """What making an instance of the class `cls` runs, when the tree defines it: its
        `__init__`, or for a dataclass the `__post_init__` that its generated `__init__` calls."""
        info = self.by_module[cls.module].classes[cls.qualname]
        if info.dataclass and "__init__" not in info.methods:
            return self.method(cls.module, cls.qualname, "__post_init__")
        return self.method(cls.module, cls.qualname, "__init__")

    def call_targets(self, module: str, caller: FunctionInfo, callee: str) -> tuple[Target, ...]:
        """The project functions a call as written in `caller` may reach: a function or method,
        a class's `__init__`, what a local alias or `functools.partial` names, and what an
        attribute, dict or list set in the class holds (`self.processor(h)` reaches the
        processor's `__call__`, or `forward` for a module)."""
        key = (module, caller.qualname, callee)
        known = self._targets.get(key)
        if known is None:
            known = self._targets[key] = tuple(
                dict.fromkeys(self._call_targets(module, caller, callee, 0))
            )
        return known

    def constructed(self, module: str, caller: FunctionInfo, callee: str) -> DefinitionRef | None:
        """The project class a call as written constructs, if it is one."""
        key = (module, caller.imports, callee)
        if key not in self._constructed:
            ref = self.resolve_local(module, _strip_call(callee), caller)
            is_class = ref is not None and ref.qualname in self.by_module[ref.module].classes
            self._constructed[key] = ref if is_class else None
        return self._constructed[key]

    def _call_targets(
        self, module: str, caller: FunctionInfo, callee: str, depth: int
    ) -> list[Target]:
        if callee.endswith("()") and depth <= _MAX_DEPTH:
            # `Resample(1, 2)(x)`, `Resample(1, 2).to(x)(x)`: a call of what a call returns
            # (the module made: its `forward`, an object's `__call__`)
            return self._held_targets(module, caller, f"c{callee[:-2]};", "", depth)
        callee = _strip_call(callee)
        head, _, looked_up = callee.partition(".")
        if "*" in callee:  # `getattr(self, f"conv{i}")(x)`: what the names it may read hold
            if head not in ("self", "cls") or not caller.class_name or "." in looked_up:
                return []
            return self._named_targets(DefinitionRef(module, caller.class_name), looked_up, depth)
        # `self.flows[i].inverse(z)`: a method of an element, which the container's summary
        # reaches as it reaches the container's own (`l` and `i` hold what they combine).
        element = "[]." in callee
        callee = callee.replace("[].", ".", 1)
        ref = None if element else self.resolve_callee(module, caller, callee)
        if ref is not None:
            info = self.function(ref)
            assert info is not None
            # `self.f(x)`, `cls.f(x)`, and `Gate(x)`, whose `__init__` gets the new instance
            written_on_instance = callee.partition(".")[0] in ("self", "cls", SUPER) or (
                self.constructed(module, caller, callee) is not None
            )
            return [Target(ref, _binds_first(info, written_on_instance))]
        traced = self._autograd_methods(module, caller, callee)
        if traced:
            return [Target(method, True) for method in traced]  # `apply(x)` passes `ctx` itself
        if depth > _MAX_DEPTH:
            return []
        made, made_dot, method = callee.rpartition("().")
        if made_dot:  # `Helper(...).run(x)`, `make().run(x)`: a method of what a call returns
            return self._held_targets(module, caller, f"c{made};", method, depth)
        head, _, rest = callee.partition(".")
        holds = callee.endswith("[]")  # one of the callables a container holds
        if holds:
            head, _, rest = callee.removesuffix("[]").partition(".")
        if head in ("self", "cls") and caller.class_name and rest:
            attribute, _, method = rest.partition(".")
            found = []
            for owner, summary in self.attribute_summaries(module, caller.class_name, attribute):
                found += self._attribute_targets(owner, summary, method, depth)
            return found
        binding = self._binding(module, caller, head)
        if binding is None and not rest and not holds and self._is_parameter(caller, head):
            # `fn(x)` with `fn` a parameter: what the callers pass (`apply(per_row, x)`)
            return self._parameter_targets(module, caller, head, "", depth)
        if binding is None and not rest:  # `SOLVERS[name](...)`, a module-level container's
            held = self._container_targets(module, caller, head)
            return held or self._module_call_targets(module, caller, head, depth)
        if binding is None and rest and not holds and "." not in rest:
            # `collector.get()` with `collector = Collector(...)` at module level, here or
            # imported, unless a parameter of the same name hides it; the method of what the
            # callers pass to a parameter (`learner.loss(x)`).
            if self._is_parameter(caller, head):
                return self._parameter_targets(module, caller, head, rest, depth)
            cls = self._module_instance(module, caller, head)
            target = None if cls is None else self.method(cls.module, cls.qualname, rest)
            return [] if target is None else [Target(target, True)]
        # A local alias of a callable (`fn = a if c else b`, `fn = partial(f)`), or a local
        # instance whose method is called (`obj = Scheduler(); obj.step(x)`); not a value's
        # method (`h = x * 2; h.view(...)`).
        if binding is None or (rest and holds) or "." in rest:
            return []
        # A method is followed on an instance a call makes, or an element of a container
        # (`for flow in self.flows`); on the container itself only through an element.
        if binding[0] not in (("cil" if element else "ci") if rest else "ndrjlc"):
            return []
        return self._held_targets(module, caller, binding, rest, depth)

    def _container_targets(self, module: str, caller: FunctionInfo, name: str) -> list[Target]:
        """What calling an element of a module-level literal container reaches: the functions
        it holds, and the constructors of the classes."""
        held = self._module_level(module, caller, name, "containers")
        if held is None:
            return []
        owner, summary = held
        found = []
        for kind, value in held_values(summary):
            ref = self.resolve_local(owner, value) if kind == "name" else None
            if ref is not None and ref.qualname in self.by_module[ref.module].classes:
                ref = self.constructor(ref)
                if ref is not None:
                    found.append(Target(ref, True))
            elif ref is not None:
                found.append(Target(ref, False))
        return found

    def _module_call_targets(
        self, module: str, caller: FunctionInfo, name: str, depth: int
    ) -> list[Target]:
        """`_param(x)` with `_param = effectful(fn, type="param")` at the top level of the
        caller's module: what calling the value the project function returns reaches (the
        wrapper a decorator written as a call returns); not an instance of a project class."""
        made = self._module_level(module, caller, name, "instances")
        if made is None or made[0] != module or depth >= _MAX_DEPTH:
            return []
        if self._module_instance(module, caller, name) is not None:
            return []
        found = []
        for called in self._call_targets(module, caller, made[1], depth + 1):
            # Every definition of it: typing's `@overload` stubs come before the one that runs.
            for ref in self.definitions(called.ref):
                info = self.function(ref)
                if info is not None and info.returns:
                    found += self._held_targets(ref.module, info, info.returns, "", depth + 1)
        return found

    def _autograd_methods(
        self, module: str, caller: FunctionInfo, callee: str
    ) -> list[DefinitionRef]:
        """`Clamp.apply(x)` of a `torch.autograd.Function` subclass: Dynamo traces the class's
        `forward(ctx, x)` in the caller's graph, and its `backward` too when an input requires
        grad (a break there splits the caller at `apply`)."""
        owner, _, method = callee.rpartition(".")
        if method != "apply" or not owner:
            return []
        cls = self.resolve_local(module, owner, caller)
        if cls is None or cls.qualname not in self.by_module[cls.module].classes:
            return []
        bases = (
            _strip_call(base).rpartition(".")[2]
            for ancestor in self.base_classes(cls)
            for base in self.by_module[ancestor.module].classes[ancestor.qualname].bases
        )
        if AUTOGRAD_FUNCTION_BASE not in bases:
            return []
        found = (self.method(cls.module, cls.qualname, name) for name in AUTOGRAD_FUNCTION_TRACED)
        return [ref for ref in found if ref is not None]

    def _module_instance(
        self, module: str, caller: FunctionInfo, name: str
    ) -> DefinitionRef | None:
        """The project class of the instance a module-level `name = Class(...)` holds, for
        `name` as written in `caller`."""
        made = self._module_level(module, caller, name, "instances")
        if made is None:
            return None
        owner, written = made
        cls = self.resolve_local(owner, written)
        return (
            cls if cls is not None and cls.qualname in self.by_module[cls.module].classes else None
        )

    def module_object(self, module: str, caller: FunctionInfo, name: str) -> str | None:
        """The dotted name of the class that made the object a module-level `name = Class(...)`
        holds (`contextvars.ContextVar`), for `name` as written in `caller`, here or imported."""
        made = self._module_level(module, caller, name, "instances")
        if made is None:
            return None
        owner, written = made
        return expand_import(written, self.by_module[owner].imports)

    def _module_level(
        self, module: str, caller: FunctionInfo | None, name: str, table: str
    ) -> tuple[str, str] | None:
        """The module that binds `name`, as written in `caller` (None: in the module's own
        code), at its top level, and what its `table` (`instances`: the callee as written;
        `containers`: the literal's summary) holds for it there; None for a parameter or a
        name bound otherwise."""
        parameters = () if caller is None else caller.parameters
        if _names_parameter(parameters, name):
            return None
        index = self.by_module[module]
        owner, written = module, getattr(index, table).get(name)
        if written is None:
            imports = index.imports if caller is None else caller.import_table(index.imports)
            target = imports.get(name)
            if target is None:
                return None
            written_owner, _, imported = target.rpartition(".")
            found = self.modules.find(written_owner, module)
            if found is None:
                return None
            owner = found
            written = getattr(self.by_module[owner], table).get(imported)
            if written is None:
                return None
        return owner, written

    def _binding(self, module: str, caller: FunctionInfo, name: str) -> str | None:
        """The summary of what `name` is bound to in `caller`, if it is a local: every binding
        of it, as a call names no binding (`fn = a` ... `fn = b`: `fn(x)` may call either)."""
        key = (module, caller.qualname)
        table = self._local_bindings.get(key)
        if table is None:
            table = self._local_bindings[key] = {}
            for entry in caller.bindings:
                bound, _, summary = entry.partition("=")
                local = bound.partition(VERSION)[0]
                known = table.get(local)
                table[local] = summary if known is None else f"j{known}{summary}"
        return table.get(name)

    def holds_new_object(self, module: str, caller: FunctionInfo, callee: str) -> bool:
        """Whether a method call as written (`solver.integrate`) is on a local that every
        binding sets to an instance `caller` makes: a project class constructed
        (`solver = Euler()`), a class a local holds (`solver = solver_class()` after
        `solver_class = select(m)`), or one of the classes a module-level container holds
        (`solver = SOLVERS[m]()`). Not the result of a factory function, which may hand back
        an object made before the compiled code ran."""
        return bool(self.new_object_makers(module, caller, callee))

    def new_object_makers(self, module: str, caller: FunctionInfo, callee: str) -> list[str]:
        """The calls as written (`Euler`, `solver_class`) that make the object a method call
        is on, where `holds_new_object` holds; none where it does not."""
        name, dot, method = callee.partition(".")
        if not dot or "." in method or "(" in callee or self._is_parameter(caller, name):
            return []
        summaries = [
            summary
            for entry in caller.bindings
            if (bound := entry.partition("="))[0].partition(VERSION)[0] == name
            for summary in [bound[2]]
        ]
        makers = []
        for summary in summaries:
            if summary[:1] != "c" or summary.index(";") != len(summary) - 1:
                return []
            maker = _strip_call(unversioned(summary[1:-1]))
            if (
                self.constructed(module, caller, maker) is None
                and not (maker.isidentifier() and self._holds_classes(module, caller, maker, 0))
                and not (
                    maker.endswith("[]")
                    and self._element_classes(module, caller, maker[:-2], 0, every=True)
                )
            ):
                return []
            makers.append(maker)
        return makers

    def _held_targets(
        self, module: str, owner: FunctionInfo, summary: str, method: str, depth: int
    ) -> list[Target]:
        """What calling the value a summary describes reaches (its `method`, when given).
        Found once per value and depth: a value asked for again while it is found (a cycle
        of calls, attributes or callers) adds nothing."""
        return self._found_once(
            self._held,
            (module, owner.qualname, summary, method),
            depth,
            lambda: list(dict.fromkeys(self._find_held(module, owner, summary, method, depth))),
        )

    def _found_once(
        self,
        memo: dict[tuple[object, ...], list[_Found]],
        key: tuple[object, ...],
        depth: int,
        find: Callable[[], list[_Found]],
    ) -> list[_Found]:
        """What `find` finds for `key` at `depth`, kept in `memo`; nothing for a key asked for
        again while it is found (a cycle of calls, attributes or callers). Each answer is the
        one asked first would get, whatever was asked before, so the call summaries can share
        the scope's (`engine._in_project_scope`): it is kept by depth (one found nearer the
        start follows values further), and answers found inside a cycle, which lack what the
        value the cycle returns to adds, are kept only until that value is found."""
        on_stack = self._finding.get(key)
        if on_stack is not None:
            self._cycle_to = min(self._cycle_to, on_stack)
            return []
        asked = (*key, depth)
        known = memo.get(asked)
        if known is not None:
            return known
        position = self._finding[key] = len(self._finding)
        outer, self._cycle_to = self._cycle_to, _NO_CYCLE
        provisional = len(self._provisional)
        try:
            found = find()
        finally:
            del self._finding[key]
        memo[asked] = found
        if self._cycle_to >= position:  # complete: so is what was found inside it
            for held, inside in self._provisional[provisional:]:
                held.pop(inside, None)
            del self._provisional[provisional:]
            self._cycle_to = outer
        else:
            self._provisional.append((memo, asked))
            self._cycle_to = min(outer, self._cycle_to)
        return found

    def _find_held(
        self, module: str, owner: FunctionInfo, summary: str, method: str, depth: int
    ) -> list[Target]:
        element = _RETURNED_ELEMENT.fullmatch(summary)
        if element is not None and depth < _MAX_DEPTH:
            # `sde, bm = checked(sde, bm)`: the item of the tuple the function returns
            position, callee = int(element[1]), element[2]
            targets = self._call_targets(module, owner, callee, depth + 1)
            returns = [self.function(t.ref) for t in targets]
            items = [None if r is None else tuple_items(r.returns) for r in returns]
            if targets and all(i is not None and position < len(i) for i in items):
                return [
                    held
                    for target, info, item in zip(targets, returns, items, strict=True)
                    if info is not None and item is not None
                    for held in self._held_targets(
                        target.ref.module, info, item[position], method, depth + 1
                    )
                ]
        found = []
        for kind, name in held_values(summary):
            if kind == "call" and name.endswith("[]"):
                # `solver = SOLVERS[method](...)`: an instance of any class the container holds
                for made in self._element_classes(module, owner, name[:-2], depth + 1):
                    found += self._instance_targets(made, method, depth + 1)
            elif kind == "call":
                cls = self.resolve_local(module, _strip_call(name), owner)
                if cls is not None and cls.qualname in self.by_module[cls.module].classes:
                    found += self._instance_targets(cls, method, depth)
                elif depth < _MAX_DEPTH:  # what a project function returns
                    # `solver = solver_class(...)`, a local bound to a class: an instance
                    for made in self._value_classes(module, owner, _strip_call(name), depth + 1):
                        found += self._instance_targets(made, method, depth + 1)
                    for called in self._call_targets(module, owner, name, depth + 1):
                        # Every definition of it: typing's `@overload` stubs, each annotated
                        # with what it returns, come before the one that runs.
                        for ref in self.definitions(called.ref):
                            found += self._returned_targets(ref, method, depth)
            elif self._is_parameter(owner, name):  # what the callers pass, or its annotation
                found += self._parameter_targets(module, owner, name, method, depth)
                # and what the function binds the parameter to (`if bm is None: bm = ...`)
                if (binding := self._binding(module, owner, name)) is not None:
                    found += self._held_targets(module, owner, binding, method, depth + 1)
            elif (binding := self._binding(module, owner, name)) is not None:
                # a local passed on (`steps += [Scale()]; Chain(steps)`): what it holds
                found += self._held_targets(module, owner, binding, method, depth + 1)
            else:  # the callable itself, or an object whose method is called
                written = f"{name}.{method}" if method else name
                found += self._call_targets(module, owner, written, depth + 1)
        return found

    def _returned_targets(self, ref: DefinitionRef, method: str, depth: int) -> list[Target]:
        """What calling (the `method` of) what the project function `ref` returns reaches:
        what its `return`s hold, and an instance of each class its annotation names
        (`-> Backend`, `-> Handler[P, T]`, `-> Union[Messenger, Handler[P, T]]`)."""
        info = self.function(ref)
        if info is None:
            return []
        found = []
        if info.returns:
            found += self._held_targets(ref.module, info, info.returns, method, depth + 1)
        for written in info.returns_class.split("|") if info.returns_class else ():
            annotated = self.resolve_local(ref.module, written, info)
            if (
                annotated is not None
                and annotated.qualname in self.by_module[annotated.module].classes
            ):
                found += [
                    replace(target, declared=True)
                    for target in self._instance_targets(annotated, method, depth + 1)
                ]
        return found

    def _element_classes(
        self, module: str, owner: FunctionInfo, container: str, depth: int, every: bool = False
    ) -> list[DefinitionRef]:
        """The project classes a module-level container (`SOLVERS = {"euler": Euler}`, here or
        imported) holds, for its name as written in `owner`; with `every`, none unless every
        value it holds is such a class (no factory that may hand back an object made before)."""
        held = self._module_level(module, owner, container, "containers")
        if held is None:
            return []
        classes = self._held_classes(held[0], None, held[1], depth)
        if every and len(classes) != len(held_values(held[1])):
            return []
        return classes

    def _value_classes(
        self, module: str, owner: FunctionInfo, written: str, depth: int
    ) -> list[DefinitionRef]:
        """The project classes (the classes themselves, not instances) that a name as written
        in `owner` may hold: a local bound to a class named, or returned by a project function
        (`solver_class = select(method)`, `select` returning one of several classes); a
        parameter, the classes its callers pass (`predicted(x, Euler)`); `self.<attribute>`,
        what the methods of the class assign to it (`self.step_class = step_class`)."""
        if depth >= _MAX_DEPTH:
            return []
        head, dot, attribute = written.partition(".")
        if dot:
            if head != "self" or owner.class_name is None or "." in attribute:
                return []
            found = []
            for setter, summary in self.attribute_summaries(module, owner.class_name, attribute):
                info = self.function(setter)
                assert info is not None
                found += self._held_classes(setter.module, info, summary, depth + 1)
            return list(dict.fromkeys(found))
        binding = self._binding(module, owner, written)
        found = [] if binding is None else self._held_classes(module, owner, binding, depth)
        if self._is_parameter(owner, written):
            ref = DefinitionRef(module, owner.qualname)
            found += self._found_once(
                self._passed_classes,
                (ref, written),
                depth,
                lambda: self._find_passed_classes(owner, ref, written, depth),
            )
        return list(dict.fromkeys(found))

    def _holds_classes(self, module: str, owner: FunctionInfo, name: str, depth: int) -> bool:
        """Whether the name `name` in `owner` holds project classes: a local bound to one
        (`_value_classes`), or a parameter every caller passes a class to, named or a
        parameter of its own that does (a factory passed instead may hand back an object
        made before the call)."""
        if not self._is_parameter(owner, name):
            return bool(self._value_classes(module, owner, name, depth))
        arguments = self._arguments(owner, DefinitionRef(module, owner.qualname), name)
        if not arguments or depth >= _MAX_DEPTH:
            return False
        for site, argument in arguments:
            caller = self.function(site.caller)
            assert caller is not None
            values = [] if argument is None else held_values(argument)
            if not values or not all(
                kind == "name" and self._names_class(site.caller.module, caller, value, depth)
                for kind, value in values
            ):
                return False
        return True

    def _names_class(self, module: str, owner: FunctionInfo, written: str, depth: int) -> bool:
        """Whether a name as written in `owner` is a project class, or a parameter of `owner`
        that holds classes only (`_holds_classes`)."""
        ref = self.resolve_local(module, written, owner)
        if ref is not None:
            return ref.qualname in self.by_module[ref.module].classes
        return "." not in written and self._holds_classes(module, owner, written, depth + 1)

    def _find_passed_classes(
        self, function: FunctionInfo, ref: DefinitionRef, name: str, depth: int
    ) -> list[DefinitionRef]:
        found = []
        for site, argument in self._arguments(function, ref, name):
            caller = self.function(site.caller)
            assert caller is not None
            if argument is not None:
                found += self._held_classes(site.caller.module, caller, argument, depth + 1)
        return list(dict.fromkeys(found))

    def _held_classes(
        self, module: str, owner: FunctionInfo | None, summary: str, depth: int
    ) -> list[DefinitionRef]:
        """The project classes a summary may hold as values; `owner`: the function whose
        locals it names (None: a module-level value's)."""
        if depth >= _MAX_DEPTH:
            return []
        found = []
        for kind, name in held_values(summary):
            ref = self.resolve_local(module, _strip_call(name), owner)
            if ref is not None:
                if kind == "name" and ref.qualname in self.by_module[ref.module].classes:
                    found.append(ref)
                elif kind == "call" and (made := self.function(ref)) is not None and made.returns:
                    found += self._held_classes(ref.module, made, made.returns, depth + 1)
            elif kind == "name" and owner is not None:
                # another local, a parameter or attribute, or a module-level container
                # (`cls = SOLVERS[name]`)
                found += self._value_classes(module, owner, name, depth + 1)
                held = self._module_level(module, owner, name, "containers")
                if held is not None:
                    found += self._held_classes(held[0], None, held[1], depth + 1)
        return list(dict.fromkeys(found))

    def _instance_targets(self, cls: DefinitionRef, method: str, depth: int) -> list[Target]:
        """What calling an instance of the project class `cls` reaches: its `method`, or what
        its attribute of that name holds (`a.b`: the method `b` of what its attribute `a`
        holds), or its `__call__` or `forward`."""
        attribute, dot, further = method.partition(".")
        if "*" in method:  # `getattr(block, f"conv{i}")(x)`
            return [] if dot else self._named_targets(cls, method, depth)
        if not dot:
            for candidate in [method] if method else ["__call__", "forward"]:
                target = self.method(cls.module, cls.qualname, candidate)
                if target is not None:
                    return [Target(target, True)]
            if not method:
                return []
        found = []
        for owner, summary in self.attribute_summaries(cls.module, cls.qualname, attribute):
            found += self._attribute_targets(owner, summary, further, depth + 1)
        return found

    def _named_targets(self, cls: DefinitionRef, pattern: str, depth: int) -> list[Target]:
        """What calling an attribute of an instance of the project class `cls` that
        `getattr` reads by a computed name reaches (`getattr(self, f"conv{i}")(x)`, the
        pattern `conv*`): each method of the class, its bases and its subclasses whose name
        fits, and what each attribute of that name its methods assign holds."""
        found = []
        names = {
            name
            for base in self.base_classes(cls)
            for name in self.by_module[base.module].classes[base.qualname].methods
        }
        for name in sorted(names):
            if fnmatchcase(name, pattern):
                target = self.method(cls.module, cls.qualname, name)
                info = None if target is None else self.function(target)
                if target is not None and info is not None:
                    found.append(Target(target, _binds_first(info, True)))
        for sub in self.subclasses(cls):
            for name in self.by_module[sub.module].classes[sub.qualname].methods:
                override = DefinitionRef(sub.module, f"{sub.qualname}.{name}")
                info = self.function(override)
                if fnmatchcase(name, pattern) and info is not None:
                    found.append(Target(override, _binds_first(info, True)))
        self.attribute_summaries(cls.module, cls.qualname, "")
        for name, assigned in self._attributes[cls].items():
            if fnmatchcase(name, pattern) and name not in names:
                for owner, summary in assigned:
                    found += self._attribute_targets(owner, summary, "", depth + 1)
        return found

    def _attribute_targets(
        self, owner: DefinitionRef, summary: str, method: str, depth: int
    ) -> list[Target]:
        """What calling (the `method` of) the value that the method `owner` assigns to an
        attribute of its class reaches: what the summary holds, or, for `self._last = self`
        (a tree's cursor, a root), the object itself, an instance of that class."""
        info = self.function(owner)
        assert info is not None
        if info.class_name is not None and held_values(summary) == [("name", "self")]:
            cls = DefinitionRef(owner.module, info.class_name)
            return self._instance_targets(cls, method, depth)
        return self._held_targets(owner.module, info, summary, method, depth)

    def _is_parameter(self, function: FunctionInfo, name: str) -> bool:
        return "." not in name and _names_parameter(function.parameters, name)

    def _parameter_targets(
        self, module: str, function: FunctionInfo, name: str, method: str, depth: int
    ) -> list[Target]:
        """What calling (the `method` of) the value a parameter holds reaches: the instances
        and callables the function's callers pass to it, and, calling the value itself, its
        annotation's class (a named method of a declared class only where the class holds
        tensors, its constructor taking one: configuration objects' helpers branch on
        constants Dynamo folds)."""
        if depth >= _MAX_DEPTH:
            return []
        ref = DefinitionRef(module, function.qualname)
        return self._found_once(
            self._passed_targets,
            (ref, name, method),
            depth,
            lambda: self._find_passed(module, function, ref, name, method, depth),
        )

    def _find_passed(
        self,
        module: str,
        function: FunctionInfo,
        ref: DefinitionRef,
        name: str,
        method: str,
        depth: int,
    ) -> list[Target]:
        found: list[Target] = []
        entries = [entry.partition("=") for entry in function.parameters]
        marks = next(marks for parameter, _, marks in entries if parameter == name)
        annotation = marks[4:] if marks[3:4] == ":" else ""
        cls = self.resolve_local(module, annotation, function) if annotation else None
        if cls is not None and cls.qualname not in self.by_module[cls.module].classes:
            cls = None  # not a class the tree declares
        if cls is not None and (not method or self._holds_tensors(cls)):
            found += self._instance_targets(cls, method, depth + 1)
        probed = self.probed_class(ref, name)
        if probed is not None:
            found += self._instance_targets(probed, method, depth + 1)
        for site, argument in self._arguments(function, ref, name):
            found += self._site_targets(site, argument, name, method, depth + 1)
        return list(dict.fromkeys(found))

    def _arguments(
        self, function: FunctionInfo, ref: DefinitionRef, name: str
    ) -> list[tuple[CallSite, str | None]]:
        """Each call site of `ref` (the function `function`) with the summary of what it
        passes to the parameter `name` (None: nothing written, a default or `**kwargs`)."""
        entries = (entry.partition("=") for entry in function.parameters)
        positional = [parameter for parameter, _, marks in entries if marks[:1] == "p"]
        sites = self.call_sites(ref)
        found = []
        # A slot that many callers fill (every model's `super().__init__(config)`) holds a
        # guess among many classes: left out, which also keeps the cost to a few calls each.
        for site in sites if len(sites) <= _MAX_CALLERS else ():
            names = positional[1:] if site.bound else positional
            passed = dict(site.keywords)
            if name in names and names.index(name) < len(site.positional):
                passed[name] = site.positional[names.index(name)]
            found.append((site, passed.get(name)))
        return found

    def _holds_tensors(self, cls: DefinitionRef) -> bool:
        """Whether the constructor of the project class `cls` takes a parameter annotated as
        a tensor (or a container of tensors, or a union with one): a data object
        (`KeyedJagged(values: Tensor, ...)`), not a configuration."""
        ref = self.constructor(cls)
        info = None if ref is None else self.function(ref)
        if info is None:
            return False
        marks = (entry.partition("=")[2] for entry in info.parameters)
        return any(mark[1:2] in _TENSOR_MARKS for mark in marks)

    def _forwarded_targets(
        self, ref: DefinitionRef, name: str, method: str, depth: int
    ) -> list[Target]:
        """What calling (the `method` of) what the callers of `ref` pass by the keyword `name`
        into its `**kwargs`, which it passes on, reaches."""
        info = self.function(ref)
        if depth >= _MAX_DEPTH or info is None or self._is_parameter(info, name):
            return []
        sites = self.call_sites(ref)
        found: list[Target] = []
        for site in sites if len(sites) <= _MAX_CALLERS else ():
            argument = dict(site.keywords).get(name)
            found += self._site_targets(site, argument, name, method, depth + 1)
        return found

    def _site_targets(
        self, site: CallSite, argument: str | None, name: str, method: str, depth: int
    ) -> list[Target]:
        """What one call site passes for the parameter `name` reaches: its argument's summary,
        or, with none, what its caller's callers pass by that keyword into the `**kwargs` it
        passes on."""
        if argument is not None:
            caller = self.function(site.caller)
            assert caller is not None
            return self._held_targets(site.caller.module, caller, argument, method, depth)
        if site.forwards:
            return self._forwarded_targets(site.caller, name, method, depth)
        return []

    def call_sites(self, ref: DefinitionRef) -> list[CallSite]:
        """The project's calls that name the function `ref` directly (a function, a method on
        `self`, `super()` or a class, a constructor), each with its arguments. The calls are
        grouped by the name they are written with, and a group is resolved when a function
        of that name (or, for a constructor, of its class's or a subclass's) is first asked
        about: a class imported under another name is not followed."""
        if self._calls_by_name is None:
            self._calls_by_name = {}
            for module, index in self.by_module.items():
                for info in index.functions.values():
                    for entry in info.calls:
                        written = _strip_call(entry.partition(" ")[0]).removesuffix("[]")
                        name = written.rpartition(".")[2]
                        self._calls_by_name.setdefault(name, []).append((module, info, entry))
        owner, _, name = ref.qualname.rpartition(".")
        names = {name}
        if owner and name in ("__init__", "__post_init__"):
            cls = DefinitionRef(ref.module, owner)
            names.update(c.qualname.rpartition(".")[2] for c in [cls, *self.subclasses(cls)])
            self._add_local_constructions()
        for group in sorted(names - self._resolved_names):
            self._resolved_names.add(group)
            for module, info, entry in self._calls_by_name.get(group, ()):
                self._add_call_site(module, info, entry)
        return self._sites.get(ref, [])

    def _add_local_constructions(self) -> None:
        """The calls of a local that holds classes (`solver_class = select(m)` returning
        `Euler` or `Heun`, then `solver_class(bm)`): call sites of each class's constructor."""
        if self._local_calls is None:
            return
        assert self._calls_by_name is not None
        for name, entries in self._calls_by_name.items():
            if name.isidentifier():
                self._local_calls += [e for e in entries if e[2].partition(" ")[0] == name]
        local_calls, self._local_calls = self._local_calls, None
        for module, info, entry in local_calls:
            if self._binding(module, info, name := entry.partition(" ")[0]) is None:
                continue
            for cls in self._value_classes(module, info, name, 0):
                constructor = self.constructor(cls)
                if constructor is not None:
                    self._add_call_site(module, info, entry, Target(constructor, True))

    def _add_call_site(
        self, module: str, info: FunctionInfo, entry: str, target: Target | None = None
    ) -> None:
        callee, *arguments = entry.split(" ")
        target = target or self.direct_target(module, info, callee)
        if target is None:
            return
        positional: list[str] = []
        keywords: list[tuple[str, str]] = []
        for argument in arguments:
            if argument.startswith("*"):
                break  # what the rest receive is unknown
            keyword, equals, summary = argument.partition("=")
            if equals and keyword.isidentifier():
                keywords.append((keyword, summary))
            else:
                positional.append(argument)
        site = CallSite(
            DefinitionRef(module, info.qualname),
            target.bound,
            tuple(positional),
            tuple(keywords),
            passes_own_keywords(arguments, info),
        )
        self._sites.setdefault(target.ref, []).append(site)

    def direct_target(self, module: str, caller: FunctionInfo, callee: str) -> Target | None:
        """The project function a call names directly, without following what values hold."""
        ref = self.resolve_callee(module, caller, callee)
        if ref is None:
            cls = self.constructed(module, caller, callee)
            ref = None if cls is None else self.method(cls.module, cls.qualname, "__init__")
            return None if ref is None else Target(ref, True)
        info = self.function(ref)
        assert info is not None
        on_instance = callee.partition(".")[0] in ("self", "cls", SUPER) or (
            self.constructed(module, caller, callee) is not None
        )
        return Target(ref, _binds_first(info, on_instance))

    def attribute_summaries(
        self, module: str, class_name: str, attribute: str
    ) -> list[tuple[DefinitionRef, str]]:
        """What the methods of a class (and of its project bases) assign to
        `self.<attribute>`, with the method that assigns it."""
        cls = DefinitionRef(module, class_name)
        table = self._attributes.get(cls)
        if table is None:
            table = self._attributes[cls] = {}
            for base in reversed(self.base_classes(cls)):
                index = self.by_module[base.module]
                for name in index.classes[base.qualname].methods:
                    ref = DefinitionRef(base.module, f"{base.qualname}.{name}")
                    info = index.functions.get(ref.qualname)
                    for entry in info.attributes if info is not None else ():
                        assigned, _, summary = entry.partition("=")
                        table.setdefault(assigned, []).append((ref, summary))
        return table.get(attribute, [])

    def roots(self, compiled: tuple[ProbeRoot, ...] = ()) -> list[Root]:
        """Every compile root with its label, in a stable order; `compiled`: what the probes
        compile (`breaklint.probe_roots`)."""
        found: dict[DefinitionRef, Root] = {}

        def add(ref: DefinitionRef | None, name: str, inner: tuple[str, ...] | None = None) -> None:
            if ref is not None and self.function(ref) is not None:
                found.setdefault(ref, Root(ref, label(name), inner))

        for module, index in sorted(self.by_module.items()):
            if module in self.followed:
                continue
            for name, cls in index.classes.items():
                has_forward = "forward" in cls.methods or cls.forward_alias is not None
                has_call = "__call__" in cls.methods
                if not (has_forward or has_call):
                    continue
                if not self.is_module_class(DefinitionRef(module, name)):
                    continue
                if has_call:  # calling the module runs the project's `__call__` first
                    add(DefinitionRef(module, f"{name}.__call__"), f"{name}.__call__")
                if "forward" in cls.methods:
                    add(DefinitionRef(module, f"{name}.forward"), f"{name}.forward")
                elif cls.forward_alias is not None:  # `forward = _shared_forward`
                    alias = cls.forward_alias
                    in_class = DefinitionRef(module, f"{name}.{alias}")
                    ref = in_class if self.function(in_class) else self.resolve_local(module, alias)
                    add(ref, f"{name}.forward")
            for info in index.functions.values():
                if any(_strip_call(d) in COMPILING_DECORATORS for d in info.decorators):
                    add(DefinitionRef(module, info.qualname), info.qualname)
                for installed in info.installs_forward:
                    # `cls.forward = wrapper`: Dynamo traces what is installed.
                    if installed in info.nested:
                        add(
                            DefinitionRef(module, info.qualname),
                            f"{info.qualname}.{installed}",
                            (installed,),
                        )
                    else:
                        add(self.resolve_callee(module, info, installed), installed)
                for nested in info.compiles_nested:
                    ref = DefinitionRef(module, info.qualname)
                    add(ref, f"{info.qualname}.{nested}", (nested,))
            for name in sorted(index.compiled_names):
                for ref in self._compiled_targets(module, name):
                    add(ref, ref.qualname)
            for hook in index.hooks:
                add(self._hook_target(module, hook), f"{hook.method}({hook.target})")
        passed: dict[DefinitionRef, list[dict[str, str]]] = {}
        for probed in compiled:
            for ref in self.named_callable(probed.dotted, probed.folder):
                add(ref, ref.qualname)
                passed.setdefault(ref, []).append(self._probe_kinds(ref, probed))
        self.probe_arguments = {
            ref: agreed
            for ref, kinds in passed.items()
            if (agreed := {n: k for n, k in kinds[0].items() if all(o.get(n) == k for o in kinds)})
        }
        return sorted(found.values(), key=lambda root: (root.ref.module, root.ref.qualname))

    def _probe_kinds(self, ref: DefinitionRef, probed: ProbeRoot) -> dict[str, str]:
        """The kinds of what a probe passes to the parameters of `ref`, which it compiles:
        its positional arguments after `self` for an instance's method."""
        info = self.function(ref)
        assert info is not None
        if any(_strip_call(d) in ("staticmethod", "classmethod") for d in info.decorators):
            return {}  # whether the first parameter is passed: not read
        method = info.class_name is not None
        if ("()" in probed.dotted) != method:
            return {}  # a class's function named through the class: not read
        entries = (entry.partition("=") for entry in info.parameters)
        names = [parameter for parameter, _, marks in entries if marks[:1] == "p"]
        found = {}
        for name, kind in zip(names[1:] if method else names, probed.arguments, strict=False):
            if kind.startswith(OBJECT):
                cls = self.lookup(kind.removeprefix(OBJECT), None, probed.folder)
                if cls is None or cls.qualname not in self.by_module[cls.module].classes:
                    continue
                kind = f"{OBJECT}{cls.module}:{cls.qualname}"
            if kind:
                found[name] = kind
        return found

    def probed_class(self, ref: DefinitionRef, name: str) -> DefinitionRef | None:
        """The project class whose instance every probe compiling `ref` passes to `name`."""
        kind = self.probe_arguments.get(ref, {}).get(name, "")
        if not kind.startswith(OBJECT):
            return None
        module, _, qualname = kind.removeprefix(OBJECT).partition(":")
        return DefinitionRef(module, qualname)

    def named_callable(self, dotted: str, searched_from: str | None = None) -> list[DefinitionRef]:
        """The project functions calling what a dotted name names runs: `pkg.f`, an
        instance's `forward` or `__call__` (`pkg.Model()`), its method (`pkg.Model().encode`)
        or, for an attribute that `__init__` sets to a project class's instance
        (`pkg.Model().encoder`), that instance's; its module searched from the folder
        `searched_from`."""
        if "()" not in dotted:
            ref = self.lookup(dotted, None, searched_from)
            return [ref] if ref is not None and self.function(ref) is not None else []
        head, _, rest = dotted.partition("()")
        cls = self.lookup(head, None, searched_from)
        if cls is None or cls.qualname not in self.by_module[cls.module].classes:
            return []
        attribute = rest.removeprefix(".")
        if not attribute:
            for method in ("forward", "__call__"):
                ref = self.method(cls.module, cls.qualname, method)
                if ref is not None:
                    return [ref]
            return []
        if "." in attribute or "()" in attribute:
            return []
        ref = self.method(cls.module, cls.qualname, attribute)
        if ref is not None:
            return [ref]
        found = []
        for owner, summary in self.attribute_summaries(cls.module, cls.qualname, attribute):
            owner_info = self.function(owner)
            assert owner_info is not None
            found += [t.ref for t in self._held_targets(owner.module, owner_info, summary, "", 0)]
        return found

    def decorator_functions(self, ref: DefinitionRef) -> list[DefinitionRef]:
        """The project functions decorating `ref`: their wrappers run when it is called."""
        info = self.function(ref)
        assert info is not None
        found = []
        for decorator in info.decorators:
            target = self.resolve_local(ref.module, _strip_call(decorator))
            if target is not None and self.function(target) is not None:
                found.append(target)
        return found

    def compiling_answer(self, module: str, caller: FunctionInfo, callee: str) -> bool | None:
        """What calling `callee` (as written in `caller`) returns while Dynamo traces, as a
        truth: True for torch's compiling checks (outside the tree, any function of their
        names), False for the checks Dynamo folds to a false constant
        (`torch._C._get_tracing_state()`), and for a project function whose every return is
        one of them, through `not`, `and`, `or` and other such functions; None when values
        decide it. The one answer: branches, guards and dead callees all read it."""
        callee = _strip_call(callee)
        resolved = expand_import(callee, caller.import_table(self.by_module[module].imports))
        if resolved in FALSE_WHILE_COMPILING:
            return False
        if resolved.startswith("torch.") and resolved.rpartition(".")[2] in COMPILING_CHECKS:
            return True
        ref = self.resolve_callee(module, caller, callee)
        if ref is None:
            # Outside the tree: torch's names are all that can be trusted.
            return True if callee.rpartition(".")[2] in COMPILING_CHECKS else None
        if ref in self._answers:
            return self._answers[ref]
        self._answers[ref] = None  # cycle guard
        info = self.function(ref)
        assert info is not None
        formulas = info.returns_tests
        answers = {self._formula_answer(ref.module, info, f, 0)[0] for f in formulas}
        # Only constants (`return False`): a stub, or a default that subclasses override.
        checks = any("c" in formula for formula in formulas)
        known = answers.pop() if len(answers) == 1 and checks else None
        self._answers[ref] = known
        return known

    def _formula_answer(
        self, module: str, info: FunctionInfo, formula: str, at: int
    ) -> tuple[bool | None, int]:
        """The truth of the test `formula` (`FunctionInfo.returns_tests`) starting at `at`
        while Dynamo traces, and where it ends."""
        mark = formula[at]
        if mark == "c":
            end = formula.index(";", at)
            return self.compiling_answer(module, info, formula[at + 1 : end]), end + 1
        if mark == "k":
            return formula[at + 1] == "1", at + 2
        if mark == "u":
            return None, at + 1
        if mark == "!":
            inner, end = self._formula_answer(module, info, formula, at + 1)
            return (None if inner is None else not inner), end
        values, end = [], at + 2
        for _ in range(int(formula[at + 1])):
            value, end = self._formula_answer(module, info, formula, end)
            values.append(value)
        if mark == "=":  # one of the values (a name bound more than once): known if all agree
            return (values[0] if len(set(values)) == 1 else None), end
        deciding = mark == "|"  # the operand value that decides `or`; `and` stops at False
        if deciding in values:
            return deciding, end
        return (not deciding if all(v is not None for v in values) else None), end

    def returns_tensor(self, module: str, caller: FunctionInfo, callee: str) -> bool:
        ref = self.resolve_callee(module, caller, callee)
        info = None if ref is None else self.function(ref)
        return info is not None and info.returns_tensor

    def _hook_target(self, module: str, hook: HookRegistration) -> DefinitionRef | None:
        caller = self.by_module[module].functions.get(hook.in_function or "")
        ref = (
            self.resolve_callee(module, caller, hook.target)
            if caller
            else self.resolve_local(module, hook.target)
        )
        return ref if ref is not None and self.function(ref) is not None else None

    def hook_registrations(self) -> dict[DefinitionRef, list[HookRegistration]]:
        """Hook functions mapped to their registrations in the same file."""
        found: dict[DefinitionRef, list[HookRegistration]] = {}
        for module, index in self.by_module.items():
            for hook in index.hooks:
                ref = self._hook_target(module, hook)
                if ref is not None and ref.module == module:
                    found.setdefault(ref, []).append(hook)
        return found

    def _compiled_targets(self, module: str, name: str) -> list[DefinitionRef]:
        """The project functions `torch.compile(name)` in the module compiles; `name[]`, each
        function a container the name holds does (`[torch.compile(f) for f in STEPS]`): a
        module-level one, here or imported, or a local of a function of the module."""
        if not name.endswith("[]"):
            ref = self._compiled_target(module, name)
            return [] if ref is None else [ref]
        container = name[:-2]
        held: list[tuple[str, FunctionInfo | None, str]] = [
            (module, info, binding)
            for info in self.by_module[module].functions.values()
            if (binding := self._binding(module, info, container)) is not None
        ]
        module_level = self._module_level(module, None, container, "containers")
        if module_level is not None:
            held.append((module_level[0], None, module_level[1]))
        found = []
        for owner, info, summary in held:
            for kind, value in held_values(summary):
                ref = self.resolve_local(owner, value, info) if kind == "name" else None
                if ref is not None and self.function(ref) is not None:
                    found.append(ref)
        return list(dict.fromkeys(found))

    def _compiled_target(self, module: str, name: str) -> DefinitionRef | None:
        head, _, rest = name.partition(".")
        index = self.by_module[module]
        if head == "self" and rest:
            owners = [c for c in index.classes.values() if rest in c.methods]
            return DefinitionRef(module, f"{owners[0].name}.{rest}") if len(owners) == 1 else None
        ref = self.resolve_local(module, name)
        if ref is not None and self.function(ref) is not None:
            return ref
        # `model = Codec(); torch.compile(model.encode)`: a method of a local instance, in any
        # function of the module that binds the name.
        for info in index.functions.values():
            if any(entry.startswith(f"{head}=") for entry in info.bindings):
                for target in self.call_targets(module, info, name):
                    return target.ref
        return None

    def is_disabled(self, ref: DefinitionRef) -> bool:
        info = self.function(ref)
        return info is not None and any(
            _strip_call(d) in DISABLING_DECORATORS for d in info.decorators
        )


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call of a project function: its caller and its arguments' summaries."""

    caller: DefinitionRef
    bound: bool  # the first parameter is not passed (`self.f(x)`, a constructor)
    positional: tuple[str, ...]
    keywords: tuple[tuple[str, str], ...]
    # `**kwargs` of the caller's own: the rest receive what its callers pass by keyword
    forwards: bool = False


@dataclass(frozen=True, slots=True)
class Target:
    """A project function a call reaches; `bound`: the call's first argument is not its
    first parameter (`self.f(x)`, `obj.method(x)`, a class's `__init__`)."""

    ref: DefinitionRef
    bound: bool
    # Reached only as a method of the class a return annotation names (`-> Backend`): the
    # call is that class's method, not a tensor's, but a subclass's override may run instead,
    # so no break is taken from it.
    declared: bool = False


# The readings of a parameter's annotation that admit a tensor (`index.READING_MARKS`).
_TENSOR_MARKS = frozenset({"T", "C", "Y"})


def _binds_first(info: FunctionInfo, on_instance: bool) -> bool:
    """Whether a call reaching `info` passes its first parameter itself."""
    if info.class_name is None:
        return False
    decorators = {_strip_call(d).rpartition(".")[2] for d in info.decorators}
    if "staticmethod" in decorators:
        return False
    return on_instance or "classmethod" in decorators


def held_values(summary: str) -> list[tuple[str, str]]:
    """What a summary may hold that a call can reach: ("call", callee) for the result of a call
    (an instance, when the callee is a class), ("name", dotted) for a name or attribute
    chain; through conditional expressions, `or`, containers and `functools.partial`."""
    found: list[tuple[str, str]] = []
    position = 0
    while position < len(summary):
        mark = summary[position]
        if mark in "ndcm":
            end = summary.index(";", position)
            if mark != "m":  # a method called on a value: what the value holds follows
                written = unversioned(summary[position + 1 : end])  # any binding of a local
                found.append(("call" if mark == "c" else "name", written))
            position = end + 1
        else:  # a combinator, an arity or a value: what it combines follows
            position += 1
    return found


def _calls_that(
    test: Callable[..., bool], module: str, info: FunctionInfo, *before: object
) -> tuple[str, ...]:
    return tuple(callee for callee in info.callees if test(*before, module, info, callee))


def _true_while_compiling(project: Project, module: str, info: FunctionInfo, callee: str) -> bool:
    return project.compiling_answer(module, info, callee) is True


def _false_while_compiling(project: Project, module: str, info: FunctionInfo, callee: str) -> bool:
    return project.compiling_answer(module, info, callee) is False


def _cached_reads(
    project: Project, scopes: dict[DefinitionRef, Scope], ref: DefinitionRef, info: FunctionInfo
) -> tuple[str, ...]:
    """The `self.<name>` reads of a method that reach a `functools.cached_property` getter,
    where the method's class (or the getter's) has an `__init__` compiled code calls: an object
    made there has not computed it yet."""
    if info.class_name is None:
        return ()
    reads = []
    for callee in info.callees:
        if not callee.startswith("self.") or callee.count(".") != 1:
            continue
        getter = project.resolve_callee(ref.module, info, callee)
        getter_info = None if getter is None else project.function(getter)
        if getter is None or getter_info is None or getter_info.class_name is None:
            continue
        if CACHED_PROPERTY not in getter_info.decorators:
            continue
        classes = {(ref.module, info.class_name), (getter.module, getter_info.class_name)}
        if any(
            (init := project.method(module, name, "__init__")) is not None and init in scopes
            for module, name in classes
        ):
            reads.append(callee)
    return tuple(reads)


def matches_root(root: Root, patterns: tuple[str, ...], module: str) -> bool:
    """Whether a root of the module named `module` is kept by `roots` patterns (all are,
    without patterns): a pattern matches the label (`Encoder.forward`) or the dotted path
    (`pkg.models.Encoder.forward`)."""
    if not patterns:
        return True
    dotted_path = f"{module}.{root.ref.qualname}"
    return any(fnmatchcase(root.label, p) or fnmatchcase(dotted_path, p) for p in patterns)


@dataclass(frozen=True, slots=True)
class ScopeOptions:
    """What the user asks of scope: every function (`--scope all`), and which roots to keep."""

    everything: bool = False
    roots: tuple[str, ...] = ()  # patterns; empty: every root
    # What the probes given compile (`breaklint.probe_roots`): roots too, so the static scope
    # depends on the probes a run is given.
    compiled: tuple[ProbeRoot, ...] = ()
    # The files beside the probes, (path, digest), not linted: their calls pass the objects
    # the compiled code holds (`breaklint.probe_roots.probe_callers`).
    callers: tuple[tuple[str, str], ...] = ()
    # The folders the probes put on `sys.path` (`breaklint.probe_roots.probe_search_folders`).
    search_folders: tuple[str, ...] = ()
    # Follow calls into installed libraries (`breaklint.dependencies`), but for these
    # top-level packages.
    dependencies: bool = False
    dependencies_exclude: tuple[str, ...] = ()


def _names_parameter(parameters: tuple[str, ...], name: str) -> bool:
    """Whether `FunctionInfo.parameters` (`name=marks` entries) names `name` (a loop, not
    `any` of a generator: the scope and the analysis ask this for most names they follow)."""
    if "=" in name:
        return False  # no parameter's name holds one
    entry_of = f"{name}="
    for entry in parameters:  # noqa: SIM110 (a loop: `any` of a generator costs twice)
        if entry.startswith(entry_of):
            return True
    return False


def compile_scope(
    project: Project, options: ScopeOptions = ScopeOptions()
) -> dict[str, list[ScopedFunction]]:
    """Scoped functions per path."""
    scopes: dict[DefinitionRef, Scope] = {}
    inner: dict[DefinitionRef, tuple[str, ...] | None] = {}  # absent or None: the whole function
    queue: deque[tuple[DefinitionRef, Scope]] = deque()  # with the scope of what it calls

    def reach(
        ref: DefinitionRef, scope: Scope, callees: Scope, only: tuple[str, ...] | None = None
    ) -> None:
        for definition in project.definitions(ref):
            reach_one(definition, scope, callees, only)

    def reach_one(
        ref: DefinitionRef, scope: Scope, callees: Scope, only: tuple[str, ...] | None = None
    ) -> None:
        if project.is_disabled(ref):
            return
        if ref in scopes:
            known = inner.get(ref)
            if only is None or known is None:
                inner[ref] = None  # checked whole once anything calls it
            elif only and known:
                inner[ref] = tuple(dict.fromkeys([*known, *only]))
            else:
                inner[ref] = ()  # every nested function
            return
        scopes[ref] = scope
        inner[ref] = only
        queue.append((ref, callees))

    roots = kept_roots(project, options)
    for compiled in roots:
        reach(
            compiled.ref,
            Scope(compiled.label),
            Scope(compiled.label, reached=True),
            compiled.inner_only,
        )
    root_refs = {compiled.ref for compiled in roots}
    registrations = project.hook_registrations()
    while queue:
        ref, reached = queue.popleft()
        for target, only in _called(project, ref):
            reach(target, reached, reached, only)
    if options.everything:
        for ref in _every_function(project):
            scopes.setdefault(ref, EVERYTHING)
    path_of = {module: index.path for module, index in project.by_module.items()}
    scoped: dict[str, list[ScopedFunction]] = {}
    for ref, scope in scopes.items():
        info = project.function(ref)
        assert info is not None
        module = ref.module
        disabled = tuple(
            callee
            for callee in info.callees
            if (disabled_ref := project.resolve_callee(module, info, callee)) is not None
            and project.is_disabled(disabled_ref)
        )
        scoped.setdefault(path_of[module], []).append(
            ScopedFunction(
                info.qualname,
                info.start_line,
                scope,
                root=ref in root_refs,
                disabled_calls=disabled,
                inner_only=inner.get(ref),
                guard_calls=_calls_that(_true_while_compiling, module, info, project),
                false_calls=_calls_that(_false_while_compiling, module, info, project),
                tensor_calls=_calls_that(project.returns_tensor, module, info),
                cached_reads=_cached_reads(project, scopes, ref, info),
                registrations=tuple(registrations.get(ref, ())),
            )
        )
    for functions in scoped.values():
        functions.sort(key=lambda f: f.start_line)
    return scoped


def kept_roots(project: Project, options: ScopeOptions) -> list[Root]:
    """The project's compile roots that the `options.roots` patterns keep."""
    return [
        root
        for root in project.roots(options.compiled)
        if matches_root(root, options.roots, project.modules.names[root.ref.module])
    ]


def _called(
    project: Project, ref: DefinitionRef
) -> Iterator[tuple[DefinitionRef, tuple[str, ...] | None]]:
    """What calling the function `ref` runs: its decorators' functions (the wrappers they
    return: `()`) and what its calls reach (whole: None)."""
    info = project.function(ref)
    assert info is not None
    for decorator in project.decorator_functions(ref):
        yield decorator, ()
    for callee in info.callees:
        for target in project.call_targets(ref.module, info, callee):
            yield target.ref, None
        for override in project.overrides(ref.module, info, callee):
            yield override, None


def _every_function(project: Project) -> Iterator[DefinitionRef]:
    """What `--scope all` takes in: every function of the linted modules that import torch."""
    for module, index in project.by_module.items():
        if index.imports_torch and module not in project.followed:
            for name in index.functions:
                yield DefinitionRef(module, name)


def reached_from(
    project: Project,
    starts: Collection[DefinitionRef],
    walked: Collection[str] | None = None,
    done: Collection[DefinitionRef] = (),
) -> set[DefinitionRef]:
    """The functions `compile_scope` would take in from the functions `starts` (these
    included), without their scopes: `breaklint.dependencies` asks only which. With `walked`
    (module keys), the calls walked are only those of `starts` and of those modules'
    functions; the functions `done` (walked before) are reached, their calls not walked."""
    seen: set[DefinitionRef] = set()
    queue: deque[DefinitionRef] = deque()

    def reach(ref: DefinitionRef) -> None:
        for definition in project.definitions(ref):
            if definition not in seen and not project.is_disabled(definition):
                seen.add(definition)
                queue.append(definition)

    for ref in starts:
        reach(ref)
    while queue:
        ref = queue.popleft()
        if ref in starts or (
            (walked is None or ref.module in walked) and (not done or ref not in done)
        ):
            for target, _ in _called(project, ref):
                reach(target)
    return seen


def reached_from_roots(project: Project, options: ScopeOptions) -> set[DefinitionRef]:
    """The functions `compile_scope(project, options)` scopes: what its roots reach, and with
    `--scope all` every function of the linted modules that import torch."""
    found = reached_from(project, {root.ref for root in kept_roots(project, options)})
    if options.everything:
        found.update(_every_function(project))
    return found
