"""Project-wide tensor-ness: what each parameter, return value and `self.<attribute>` holds.

Between scope and the rules. The index summarises every function once (`index.summarise`):
its parameters, the calls it makes with their arguments, what its names are bound to, what
it returns and what it assigns to `self`. This module evaluates those summaries over a small
lattice and iterates to a fixed point, without reading any file again:

- T: a tensor on every path; B: a boolean tensor (a mask) on every path, a comparison of
  tensors; S: a sparse tensor on every path (`torch.sparse_coo_tensor`); P: a Python value
  (None included once joined with others); C: a container of tensors (its truth is its
  length); M: a tensor on some paths only; U: unknown. A tuple of them is what a function
  returning `a, b` gives to `x, y = f()`.
- Call sites flow into the callee's parameters (joined over every call site: positional,
  keyword, defaults, bound `self`), returns flow back to the callers, `self.<attribute>`
  assignments flow to every method of the class.

The result reaches the rules through each scoped function's hand-off (`ScopedFunction`):
parameter kinds, the kinds of the calls it makes, its class's tensor attributes and the
calls that reach project code rather than torch. A parameter is a certain tensor only where
every call site passes one; a maybe makes warnings, never errors.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from breaklint.annotations import read_annotation
from breaklint.index import (
    READING_MARKS,
    SCALARS_MARK,
    TRUTH_MARKS,
    VERSION,
    FunctionInfo,
    Node,
    decode,
    passes_own_keywords,
    unversioned,
)
from breaklint.knowledge.answers import TENSOR_METHOD_NAMES
from breaklint.knowledge.curated import (
    HELD_OBJECT_METHOD_NAMES,
    OPTIMIZER_MODULE,
    REGEX_PATTERN_MAKER,
    TRACED_DRAW_METHODS,
    UNTRACEABLE_OBJECT_METHODS,
)
from breaklint.knowledge.tensor_facts import (
    DTYPE_KEEPING_METHODS,
    MASK_METHODS,
    PYTHON_ATTRIBUTES,
    PYTHON_BUILTINS,
    PYTHON_METHODS,
    PYTHON_TORCH_PREFIXES,
    SPARSE_METHODS,
    SPARSE_TORCH_FUNCTIONS,
    TENSOR_ATTRIBUTES,
    TENSOR_METHODS,
    TENSOR_TORCH_PREFIXES,
)
from breaklint.probe_roots import TENSOR as TENSOR_PASSED
from breaklint.scope import DefinitionRef, Project, ScopedFunction, Target

Value = str | tuple[str, ...]  # an atom of the lattice, or a tuple of atoms
_V = TypeVar("_V")
_A = TypeVar("_A")
_B = TypeVar("_B")
_ROUNDS = 3  # a cycle's values settle in one or two rounds; more is a lattice that oscillates
_NONE_OPEN = 1 << 30  # `Analysis._lowest` when the computation read no open value
_NAMES = {
    "T": "tensor",
    "B": "mask",
    "S": "sparse",
    "M": "maybe",
    "P": "python",
    "N": "none",
    "C": "tensors",
}


# The lattice.
def join(one: Value | None, other: Value | None) -> Value | None:
    """Either value (None: nothing known yet)."""
    if one is None or one == other:
        return other
    if other is None:
        return one
    if isinstance(one, tuple) or isinstance(other, tuple):
        if isinstance(one, tuple) and isinstance(other, tuple) and len(one) == len(other):
            return tuple(_join_atoms(a, b) for a, b in zip(one, other, strict=True))
        return _join_atoms(_atom(one), _atom(other))
    return _join_atoms(one, other)


def _join_atoms(one: str, other: str) -> str:
    if one == other:
        return one
    if one == "N" or other == "N":
        return other if one == "N" else one
    pair = {one, other}
    if pair <= {"B", "S", "T"}:
        return "T"  # a mask or a sparse tensor on some paths only is a tensor still
    if "C" in pair:
        return "C" if pair == {"C", "P"} else "U"
    if pair & {"T", "B", "S", "M"}:
        return "M"
    return "U"


def _atom(value: Value) -> str:
    """A tuple seen as one value: a container of tensors when every element is a tensor,
    a Python value when none may be one."""
    if isinstance(value, str):
        return value
    atoms = {_atom(v) for v in value}
    if atoms <= {"T", "B", "S", "C"}:
        return "C"
    return "P" if atoms <= {"P", "N"} else "U"


def _default_value(default: str) -> Value:
    """What a parameter's default mark holds: None, a Python value (a constant of known
    truth too), or unknown (an expression, or no default)."""
    return "N" if default == "N" else "P" if default == "P" or default in TRUTH_MARKS else "U"


def operate(one: Value | None, other: Value | None) -> Value | None:
    """An operation on both: a tensor when either is one (None: nothing known yet)."""
    if one is None or other is None:
        known = _unmasked(one if other is None else other)
        return known if known in ("T", "M") else None
    kinds = {_unmasked(_atom(one)), _unmasked(_atom(other))}
    for kind in ("T", "M"):
        if kind in kinds:
            return kind
    if kinds <= {"P", "N"}:
        return "P"
    return "C" if "C" in kinds and kinds <= {"C", "P", "N"} else "U"


def compared(one: Value | None, other: Value | None) -> Value | None:
    """A comparison of both: a mask when either is a tensor."""
    value = operate(one, other)
    return "B" if value == "T" else value


def _unmasked(value: Value | None) -> Value | None:
    """What arithmetic on a value gives: a mask's result is a tensor of any dtype, a sparse
    tensor's one Dynamo never reaches (it skips the frame first), taken for a tensor."""
    return "T" if value in ("B", "S") else value


def element(value: Value | None) -> Value | None:
    if value is None:
        return None
    if isinstance(value, tuple):
        joined: Value | None = None
        for item in value:
            joined = join(joined, item)
        return joined or "U"
    return {"T": "T", "B": "T", "S": "T", "C": "T", "M": "M", "P": "P"}.get(value, "U")


def container(elements: Value) -> Value:
    """A container holding `elements`: of tensors only when every element is one
    (`{"rows": n, "cols": 4}` holds a tensor and a number, and which one an index picks is not
    followed)."""
    atom = _atom(elements)
    return "C" if atom in ("T", "C") else "P" if atom in ("P", "N") else "U"


@dataclasses.dataclass(slots=True)
class _Function:
    ref: DefinitionRef
    info: FunctionInfo
    imports: dict[str, str]
    root: bool
    parameters: dict[str, tuple[str, str, str]]  # name -> role, reading, default, in order
    bindings: dict[str, str]  # name -> summary


@dataclasses.dataclass(frozen=True, slots=True)
class _CallSite:
    """One call of a project function: the caller and its arguments' summaries."""

    caller: _Function
    bound: bool  # the first parameter is not passed (`self.f(x)`, a constructor)
    positional: tuple[str, ...]
    keywords: tuple[tuple[str, str], ...]
    unpacked: bool  # `*args` or `**kwargs`: what the rest receive is unknown
    # `**kwargs` of the caller's own: the rest receive what its callers pass by keyword
    forwards: bool = False


class Analysis:
    """Summaries evaluated over the project on demand: a parameter's value joins what its
    call sites pass, a call's value is what its targets return. Each value is computed once,
    except in a recursive cycle, which is computed again from its head until it settles
    (`_memo`)."""

    def __init__(self, project: Project, roots: set[DefinitionRef]) -> None:
        self.project = project
        self.roots = roots
        self._functions: dict[DefinitionRef, _Function] = {}
        self._sites: dict[DefinitionRef, list[_CallSite]] | None = None
        self._arguments: dict[DefinitionRef, dict[str, Value] | None] = {}
        self._returns: dict[DefinitionRef, Value | None] = {}
        self._forwards: dict[tuple[DefinitionRef, str, str], Value | None] = {}
        self._names: dict[tuple[DefinitionRef, str], Value | None] = {}
        self._attributes: dict[tuple[str, str, str], Value | None] = {}
        self._truths: dict[tuple[DefinitionRef, str], bool | None] = {}
        self._sparse: dict[tuple[DefinitionRef, str], bool] = {}
        # The values being computed, by table and key, with how many were open when each
        # started (its depth); the shallowest of them the current computation has read; the
        # values computed while some value they read was still open, with their tables (see
        # `_memo`).
        self._open: dict[tuple[int, Any], int] = {}
        self._lowest = _NONE_OPEN
        self._provisional: list[tuple[dict[Any, Any], Any]] = []

    def function(self, ref: DefinitionRef) -> _Function | None:
        """A function's summaries, read on first use."""
        known = self._functions.get(ref)
        if known is None:
            info = self.project.function(ref)
            if info is None:
                return None
            parameters = {}
            for entry in info.parameters:
                name, _, marks = entry.partition("=")
                reading = (
                    self._imported_reading(marks[4:], ref.module) if marks[3:4] == ":" else None
                )
                parameters[name] = (marks[0], reading or marks[1], marks[2])
            bindings = dict(entry.split("=", 1) for entry in info.bindings)
            imports = info.import_table(self.project.by_module[ref.module].imports)
            known = _Function(ref, info, imports, ref in self.roots, parameters, bindings)
            self._functions[ref] = known
        return known

    def _imported_reading(self, target: str, module: str) -> str | None:
        """The reading mark of an annotation in `module` that names a type alias another
        module of the tree defines (`Adj = Union[Tensor, SparseTensor]`: maybe a tensor); None
        otherwise."""
        alias = self.project.type_alias(target, module)
        if alias is None:
            return None
        module, name = alias
        reading = read_annotation(ast.Name(id=name), self.project.by_module[module].type_aliases)
        return None if reading is None else READING_MARKS[reading]

    def _call_sites(self) -> dict[DefinitionRef, list[_CallSite]]:
        """Every call of a project function, by the function called (found once)."""
        if self._sites is not None:
            return self._sites
        sites: dict[DefinitionRef, list[_CallSite]] = {}
        project = self.project
        for module, index in project.by_module.items():
            for qualname, info in index.functions.items():
                caller: _Function | None = None
                for entry in info.calls:
                    callee, *arguments = entry.split(" ")
                    # `self.step(t0, t1)` in a base class runs a subclass's override on its
                    # instances: the override receives these arguments too.
                    targets = tuple(
                        target
                        for target in project.call_targets(module, info, callee)
                        # `Function.apply(x)` passes `x` to `forward`; `backward` is given the
                        # gradients, not these arguments.
                        if not (
                            callee.endswith(".apply") and target.ref.qualname.endswith(".backward")
                        )
                    ) + tuple(
                        Target(override, True)
                        for override in project.replacing_overrides(module, info, callee)
                    )
                    if not targets:
                        cls = project.constructed(module, info, callee)
                        initialiser = (
                            None
                            if cls is None
                            else project.method(cls.module, cls.qualname, "__init__")
                        )
                        if initialiser is None:
                            continue
                        targets = (Target(initialiser, True),)
                    positional: list[str] = []
                    keywords: list[tuple[str, str]] = []
                    unpacked = False
                    for argument in arguments:
                        if argument.startswith("*"):
                            unpacked = True
                            continue
                        name, equals, summary = argument.partition("=")
                        if equals and name.isidentifier():
                            keywords.append((name, summary))
                        elif not unpacked:
                            positional.append(argument)
                    caller = caller or self.function(DefinitionRef(module, qualname))
                    assert caller is not None
                    forwards = passes_own_keywords(arguments, info)
                    for target in targets:
                        site = _CallSite(
                            caller,
                            target.bound,
                            tuple(positional),
                            tuple(keywords),
                            unpacked,
                            forwards,
                        )
                        sites.setdefault(target.ref, []).append(site)
        self._sites = sites
        return sites

    def _memo(
        self, table: dict[Any, _V], key: Any, compute: Callable[[_A, _B], _V], one: _A, two: _B
    ) -> _V:
        """`compute(one, two)`, once for `key` in `table`. A cycle (the value asked for while
        it is computed) sees nothing known, then the value of the round before, until it
        settles (at most `_ROUNDS` rounds). A value that read one still open further up is
        provisional: it stands until that one is done, and is computed again when asked
        after (unless it was computed in the round that settled), so no value rests on a
        guess made for a cycle."""
        if key in table:
            if self._open:
                depth = self._open.get((id(table), key))
                if depth is not None and depth < self._lowest:
                    self._lowest = depth
            return table[key]
        depth = len(self._open)
        self._open[id(table), key] = depth
        outer = self._lowest
        mark = len(self._provisional)
        table[key] = None  # type: ignore[assignment]  # nothing known yet
        settled = False
        for _ in range(_ROUNDS):
            self._lowest = _NONE_OPEN
            value = compute(one, two)
            # Another round only for the head of a cycle: one that read a value open further
            # up is computed again once that one is done (rounds nested in rounds would
            # multiply).
            settled = self._lowest != depth or value == table[key]
            if settled:
                break
            table[key] = value
            self._forget(mark)  # what read the value of the round before
        lowest = self._lowest
        del self._open[id(table), key]
        if lowest < depth:
            self._provisional.append((table, key))
        elif settled:
            del self._provisional[mark:]  # they read the value it settled on: final
        else:
            self._forget(mark)
        table[key] = value
        self._lowest = min(outer, lowest) if lowest < depth else outer
        return value

    def _forget(self, mark: int) -> None:
        """Drop the provisional values computed since `mark`: asked again, they are
        computed again."""
        for table, key in self._provisional[mark:]:
            table.pop(key, None)
        del self._provisional[mark:]

    def arguments(self, ref: DefinitionRef) -> dict[str, Value]:
        """What the call sites of a function pass to each parameter, joined."""
        return self._memo(self._arguments, ref, self._passed, ref, None) or {}

    def _passed(self, ref: DefinitionRef, _: None) -> dict[str, Value]:
        received: dict[str, Value] = {}
        function = self.function(ref)
        assert function is not None
        for site in self._call_sites().get(ref, ()):
            self._receive(function, site, received)
        # What the probes that compile it pass (`Project.probe_arguments`): a tensor, or a
        # Python value (a number, a string, an object of the project's).
        for name, kind in self.project.probe_arguments.get(ref, {}).items():
            value = "T" if kind == TENSOR_PASSED else "P"
            received[name] = join(received.get(name), value) or "U"
        return received

    def _receive(self, function: _Function, site: _CallSite, received: dict[str, Value]) -> None:
        caller = site.caller
        for name, argument, default in _site_arguments(function, site):
            value: Value | None
            if argument is not None:
                value = self.evaluate(caller, decode(argument))
            elif site.forwards:
                value = self.forwarded(caller, name, default)
            elif site.unpacked:
                value = "U"
            else:
                value = _default_value(default)
            if value is not None:  # None: nothing known of the argument
                received[name] = join(received.get(name), value) or "U"

    def sparse_somewhere(self, ref: DefinitionRef, name: str) -> bool:
        """Whether some call of a function passes a sparse tensor to its parameter `name`: one
        it makes, or a parameter of its own some call passes one to (`dsmm(sparse_mat, d)`
        passing on what one caller of `dsmm` makes). Joined over every caller the parameter is
        at most a maybe; Dynamo skips the frame wherever the sparse one arrives.

        Memoised: a parameter answered False has no sparse tensor anywhere up its callers, so
        neither has any parameter met on the way there, and the walk stops at one (linear in
        a chain of calls that pass the tensor on, not quadratic)."""
        start = (ref, name)
        known = self._sparse.get(start)
        if known is not None:
            return known
        pending, seen = [start], {start}
        while pending:
            ref, name = pending.pop()
            function = self.function(ref)
            if function is None:
                continue
            for site in self._call_sites().get(ref, ()):
                for parameter, argument, _ in _site_arguments(function, site):
                    if parameter != name or argument is None:
                        continue
                    if self.evaluate(site.caller, decode(argument)) == "S":
                        self._sparse[start] = True
                        return True
                    passed = _passed_on(site.caller, argument)
                    if passed is None:
                        continue
                    key = (site.caller.ref, passed)
                    if key in seen:
                        continue
                    seen.add(key)
                    answer = self._sparse.get(key)
                    if answer:
                        self._sparse[start] = True
                        return True
                    if answer is None:
                        pending.append(key)
        self._sparse.update(dict.fromkeys(seen, False))
        return False

    def truth(self, ref: DefinitionRef, name: str) -> bool | None:
        """The truth of the constant every call of a function passes to its parameter `name`
        (`matched(x, reference, strict=False)` at each call, or passing on a parameter of its
        own whose callers all do): `if strict and ...` stops at `strict` while Dynamo traces.
        None where the calls disagree or pass anything else, and for a compile root, whose
        callers are outside the tree. A cycle knows nothing."""
        key = (ref, name)
        if key in self._truths:
            return self._truths[key]
        self._truths[key] = None
        function = self.function(ref)
        sites = self._call_sites().get(ref, ())
        truths = set()
        if function is not None and not function.root:
            truths = {self._site_truth(function, site, name) for site in sites}
        found = truths.pop() if len(truths) == 1 else None
        self._truths[key] = found
        return found

    def _site_truth(self, function: _Function, site: _CallSite, name: str) -> bool | None:
        for parameter, argument, default in _site_arguments(function, site):
            if parameter != name:
                continue
            if argument is None:
                known = not (site.forwards or site.unpacked) and default in TRUTH_MARKS
                return default == "1" if known else None
            if argument in TRUTH_MARKS:
                return argument == "1"
            passed = _passed_on(site.caller, argument)
            return None if passed is None else self.truth(site.caller.ref, passed)
        return None

    def packed(self, function: _Function, name: str) -> Value | None:
        """What the `*args` or `**kwargs` parameter `name` of a function holds: a container of
        what its calls pass beyond its named parameters (`gated(x, gate=w)` into
        `def gated(x, **options)`: `options["gate"]` is a tensor), joined over the calls,
        with what a call's own `**kwargs` passed on holds; a call that unpacks anything else
        passes what is unknown. None where nothing calls it (a compile root's)."""
        keywords = name == function.info.star_kwargs
        named = [n for n, (role, _, _) in function.parameters.items() if role == "p"]
        held: Value | None = None
        for site in self._call_sites().get(function.ref, ()):
            if keywords:
                passed = [s for n, s in site.keywords if n not in function.parameters]
            else:
                passed = list(site.positional[len(named) - int(site.bound) :])
            for argument in passed:
                held = join(held, self.evaluate(site.caller, decode(argument)) or "U")
            if keywords and site.forwards:
                own = self.name(site.caller, site.caller.info.star_kwargs)
                held = join(held, element(own) or "U")
            elif site.unpacked and not site.forwards:
                held = join(held, "U")
        return None if held is None else container(held)

    def forwarded(self, function: _Function, name: str, default: str) -> Value | None:
        """What `function`'s callers pass by the keyword `name` into its `**kwargs` (which it
        passes on), joined; a callee's `default` where a caller passes none."""
        return self._memo(
            self._forwards,
            (function.ref, name, default),
            self._forwarded_of,
            function,
            (name, default),
        )

    def _forwarded_of(self, function: _Function, wanted: tuple[str, str]) -> Value | None:
        name, default = wanted
        otherwise = _default_value(default)
        sites = self._call_sites().get(function.ref, ())
        if name in function.parameters or not sites:
            return otherwise if sites else "U"  # its own parameter takes it, not `**kwargs`
        value: Value | None = None
        for site in sites:
            keywords = dict(site.keywords)
            if name in keywords:
                passed = self.evaluate(site.caller, decode(keywords[name]))
            elif site.forwards:
                passed = self.forwarded(site.caller, name, default)
            else:
                passed = "U" if site.unpacked else otherwise
            value = join(value, passed)
        return value

    def returned(self, ref: DefinitionRef) -> Value | None:
        """What a function returns, over its `return` statements."""
        return self._memo(self._returns, ref, self._returns_of, ref, None)

    def _returns_of(self, ref: DefinitionRef, _: None) -> Value | None:
        function = self.function(ref)
        assert function is not None
        info = function.info
        if info.returns_tensor:
            return "T"
        if not info.returns:
            return "N"
        return self.evaluate(function, decode(info.returns))

    # Values of names and expressions in one function.
    def parameter(self, function: _Function, name: str, reading: str, default: str) -> Value:
        """What a parameter holds: its callers' arguments read with its annotation."""
        passed = self.arguments(function.ref).get(name)
        if _default_value(default) == "P" and reading == "T":
            return "P"  # `output_attentions: Tensor | None = False` holds a flag
        # (`t0: float | Tensor = 0.0` admits its default: what callers pass decides.)
        if passed is None:
            if reading in "TCP":
                return reading
            if reading == SCALARS_MARK:
                return "P"
            if reading == "U" and default == "-" and function.root:
                return "M"  # a compile root's input, taken for a tensor
            return "U"
        atom = _atom(passed)
        if reading == "T":
            # A caller's guess (a root's unannotated input) is a tensor where it is annotated so.
            return "P" if atom in ("P", "N") else "T" if atom in ("U", "C", "M") else atom
        if reading == "C":
            return "C"
        if reading == "P":
            return "M" if atom in ("T", "B", "S", "M") else "P"
        if reading == SCALARS_MARK:
            # `ratio: float | int`: a value only guessed to be a tensor (a helper that returns
            # one on some paths) is the number annotated; a certain tensor may still arrive.
            return "M" if atom in ("T", "B", "S") else "P"
        if reading == "Y" and atom == "U":
            return "U"
        return passed

    def name(self, function: _Function, name: str) -> Value | None:
        """What a local holds in a function: `name` is the key of one of its bindings (`h`,
        or `h#2` for a later one in straight-line code, see `index._FunctionScan.bind`), its
        assignments joined, the parameter's value with them for the first (None: nothing
        known yet, as for `h = h + 1` in a loop while `h` is being computed)."""
        return self._memo(self._names, (function.ref, name), self._held, function, name)

    def _held(self, function: _Function, name: str) -> Value | None:
        value: Value | None = None
        marks = function.parameters.get(name)
        if marks is not None:
            first = next(iter(function.parameters)) == name
            if first and name in ("self", "cls") and function.info.class_name:
                value = "U"
            else:
                value = self.parameter(function, name, marks[1], marks[2])
        bound = function.bindings.get(name)
        if bound is not None:
            assigned = self.evaluate(function, decode(bound))
            if assigned == "U" and marks is not None and marks[1] == "T":
                # A parameter annotated as a tensor keeps its declared type where what is
                # assigned to it is unknown (`edge_type = edge_index.storage.value()`).
                assigned = "T"
            value = join(value, assigned)
        if marks is None and name in (function.info.star_args, function.info.star_kwargs):
            value = join(value, self.packed(function, name))
        if value is None and bound is None:
            index = self.project.by_module[function.ref.module]
            known = name in function.imports or name in index.classes or name in index.functions
            value = "P" if known else "U"  # a module, class or function: not a tensor
        return value

    def evaluate(self, function: _Function, node: Node) -> Value | None:
        mark: str = node[0]
        if len(node) == 1:
            return "P" if mark in TRUTH_MARKS else mark  # a constant: a Python value
        if mark == "n":
            return self.name(function, node[1])
        if mark == "d":
            return self._attribute(function, node[1])
        if mark == "c":
            return self._call(function, node[1])
        if mark == "o":
            return operate(self.evaluate(function, node[1]), self.evaluate(function, node[2]))
        if mark == "a":  # `&`, `|`, `^`: a mask with a mask, or with a Python bool, is one
            left, right = self.evaluate(function, node[1]), self.evaluate(function, node[2])
            return "B" if "B" in (left, right) else operate(left, right)
        if mark == "b":
            return compared(self.evaluate(function, node[1]), self.evaluate(function, node[2]))
        if mark == "j":
            return join(self.evaluate(function, node[1]), self.evaluate(function, node[2]))
        if mark == "i":
            return element(self.evaluate(function, node[1]))
        if mark == "m":
            return _method_result(node[1], self.evaluate(function, node[2]))
        if mark == "t":
            items = [self.evaluate(function, item) for item in node[1]]
            return tuple(_atom(item) if item is not None else "U" for item in items)
        if mark == "r":
            return "P"  # a callable
        inner = self.evaluate(function, node[-1])
        if inner is None:
            return None
        if mark == "s":
            return _atom(inner)
        if mark == "l":
            return container(inner)
        if mark == "e":
            if isinstance(inner, tuple):
                return inner[node[1]] if node[1] < len(inner) else "U"
            return element(inner)
        return "U"

    def _attribute(self, function: _Function, written: str) -> Value | None:
        head, _, rest = written.partition(".")
        last = written.rpartition(".")[2]
        if last in PYTHON_ATTRIBUTES or ".config." in f".{written}.":
            return "P"
        if head == "self" and "." not in rest and function.info.class_name:
            return self.self_attribute(function.ref.module, function.info.class_name, rest)
        owner = written.rpartition(".")[0]
        receiver = self.evaluate(function, ("d", owner) if "." in owner else ("n", owner))
        if receiver == "P":
            # A module's or a class's attribute is a constant (`torch.bool`, `math.pi`); an
            # object's (`output.node_index` for `output: SelectOutput`) may be anything.
            local = head.partition(VERSION)[0]
            held = local in function.parameters or local in function.bindings
            return "U" if held else "P"
        if last in TENSOR_ATTRIBUTES and receiver in ("T", "B", "S", "M"):
            return _unmasked(receiver)
        return "U"

    def self_attribute(self, module: str, class_name: str, attribute: str) -> Value | None:
        """What `self.<attribute>` holds in the methods of a class: what they assign to it."""
        key = (module, class_name, attribute)
        return self._memo(self._attributes, key, self._assigned, key, None)

    def _assigned(self, key: tuple[str, str, str], _: None) -> Value | None:
        module, class_name, attribute = key
        value: Value | None = None
        summaries = self.project.attribute_summaries(module, class_name, attribute)
        for owner, summary in summaries:
            function = self.function(owner)
            if function is not None:
                value = join(value, self.evaluate(function, decode(summary)))
        if not summaries:
            value = "U"  # set elsewhere, or a property
        return value

    def _holds_torch_module(self, function: _Function, attribute: str) -> bool:
        """Whether every assignment to `self.<attribute>` constructs a `torch.nn` module."""
        assert function.info.class_name is not None
        summaries = self.project.attribute_summaries(
            function.ref.module, function.info.class_name, attribute
        )
        for owner, summary in summaries:
            owner_function = self.function(owner)
            imports = owner_function.imports if owner_function is not None else {}
            if not summary.startswith("c") or not summary.endswith(";"):
                return False
            name = _expand(unversioned(summary[1:-1].removesuffix("()")), imports)
            if not name.startswith("torch.nn.") or not name.rpartition(".")[2][:1].isupper():
                return False
        return bool(summaries)

    def _call(self, function: _Function, callee: str) -> Value | None:
        project = self.project
        callee = callee.removesuffix("()")  # its head the binding that reaches the call
        written = unversioned(callee)
        if project.constructed(function.ref.module, function.info, written) is not None:
            return "P"  # an instance of a project class, whatever its `__init__` returns
        targets = project.call_targets(function.ref.module, function.info, written)
        if targets:
            value: Value | None = None
            for target in targets:
                value = join(value, self.returned(target.ref))
            return value  # None: not known
        on_self = written.startswith("self.") and written.count(".") == 1
        if on_self and function.info.class_name and self._holds_torch_module(function, written[5:]):
            return "T"  # `self.norm(x)` with `self.norm = nn.LayerNorm(d)`
        head, dot, method = callee.rpartition(".")
        if not dot:
            if method in function.bindings or method in function.parameters:
                return "U"  # a local callable
            if method in PYTHON_BUILTINS and method not in function.imports:
                return "P"
        resolved = _expand(written, function.imports)
        if resolved.startswith("torch."):
            return _torch_result(resolved)
        first = written.partition(".")[0]
        if first in function.imports and first not in function.bindings:
            return "U"  # a function of another module: `math.floor`, `np.sum`
        if not dot:
            return "U"
        if method in PYTHON_METHODS:
            return "P"
        receiver = self.evaluate(function, ("d", head) if "." in head else ("n", head))
        return _method_result(method, receiver)


def _passed_on(caller: _Function, argument: str) -> str | None:
    """The caller's own parameter an argument passes on before anything rebinds it (None when
    it passes anything else)."""
    passed = argument[1:-1] if argument[:1] == "n" and argument[-1:] == ";" else ""
    return passed if passed in caller.parameters and passed not in caller.bindings else None


def _site_arguments(function: _Function, site: _CallSite) -> Iterator[tuple[str, str | None, str]]:
    """Each parameter of `function` that `site` may fill, with the summary of the argument it
    passes there (None: it passes none by position or keyword) and the parameter's default
    mark."""
    names = list(function.parameters)
    if site.bound:
        names = names[1:]
    keywords = dict(site.keywords)
    position = 0
    for name in names:
        role, _, default = function.parameters[name]
        argument = None
        if role == "p" and position < len(site.positional):
            argument = site.positional[position]
            position += 1
        elif name in keywords:
            argument = keywords[name]
        yield name, argument, default


def _method_result(method: str, receiver: Value | None) -> Value | None:
    """What `receiver.method(...)` gives, by what tensors' methods give: a mask from a
    comparison (`x.eq(y)`, `x.bool()`) and from a view or copy of one (`mask.view(n, -1)`)."""
    if method in PYTHON_METHODS or receiver == "P":
        return "P"
    if method in SPARSE_METHODS:  # only tensors have it
        return "S"
    if receiver is None:
        return None
    if receiver in ("T", "B", "S"):
        masked = method in MASK_METHODS or (receiver == "B" and method in DTYPE_KEEPING_METHODS)
        return "B" if masked else "T"
    if method in TENSOR_METHODS:  # only tensors have it, whatever the receiver was taken for
        return "B" if method in MASK_METHODS else "T"
    return "M" if receiver == "M" else "U"


def _expand(name: str, imports: dict[str, str]) -> str:
    head, _, rest = name.partition(".")
    target = imports.get(head)
    if target is None:
        return name
    return f"{target}.{rest}" if rest else target


def _torch_result(name: str) -> str:
    if name in SPARSE_TORCH_FUNCTIONS:
        return "S"
    if name in ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.Tensor"):
        return "T"
    if name.startswith("torch._"):
        return "U"
    if name.startswith(TENSOR_TORCH_PREFIXES):
        return "T"
    if name.startswith(PYTHON_TORCH_PREFIXES) or name.rpartition(".")[2][:1].isupper():
        return "P" if not name.endswith("Tensor") else "T"
    # `torch.any(...)`, `torch.isnan(x)`: a boolean tensor, as the same methods give
    return "B" if name.rpartition(".")[2] in MASK_METHODS else "T"


def _kind_name(value: Value) -> str | None:
    """How the hand-off spells a value; None when it tells nothing."""
    if isinstance(value, tuple):
        names = [_NAMES.get(v, "unknown") for v in value]
        return "tuple:" + ",".join(names) if set(names) != {"unknown"} else None
    return _NAMES.get(value)


def annotate(
    project: Project, scoped: dict[str, list[ScopedFunction]]
) -> dict[str, list[ScopedFunction]]:
    """The scoped functions with what the analysis knows about them."""
    module_of = {index.path: module for module, index in project.by_module.items()}
    roots = {
        DefinitionRef(module_of[path], function.qualname)
        for path, functions in scoped.items()
        for function in functions
        if function.root
    }
    analysis = Analysis(project, roots)
    result: dict[str, list[ScopedFunction]] = {}
    for path, functions in scoped.items():
        module = module_of[path]
        result[path] = [
            _with_facts(analysis, DefinitionRef(module, f.qualname), f) for f in functions
        ]
    return result


def _with_facts(analysis: Analysis, ref: DefinitionRef, scoped: ScopedFunction) -> ScopedFunction:
    function = analysis.function(ref)
    assert function is not None
    received = analysis.arguments(function.ref)
    parameters = []
    for name, (_, reading, default) in function.parameters.items():
        if name in received or (reading == "Y" and not function.root):
            kind = _kind_name(_atom(analysis.parameter(function, name, reading, default)))
            truth = analysis.truth(ref, name) if kind == "python" else None
            if truth is not None:
                kind = "true" if truth else "false"  # a constant `if flag:` decides on
            if kind != "sparse" and analysis.sparse_somewhere(ref, name):
                kind = "maybe-sparse"
            parameters.append(f"{name}={kind or 'unknown'}")
    for star in (function.info.star_args, function.info.star_kwargs):
        packed = analysis.packed(function, star) if star else None
        if packed in ("C", "P"):  # a container of tensors, or of Python values only
            parameters.append(f"{star}={_kind_name(packed)}")
    calls = []
    project_calls = []
    for callee in function.info.callees:
        targets = analysis.project.call_targets(function.ref.module, function.info, callee)
        if not targets:
            continue
        if callee.rpartition(".")[2].removesuffix("()") in TENSOR_METHOD_NAMES:
            project_calls.append(callee)  # not the tensor method of the same name
        value: Value | None = None
        for target in targets:
            value = join(value, analysis.returned(target.ref) or "U")
        kind = _kind_name(value) if value is not None else None
        if kind is not None:
            calls.append(f"{callee}={kind}")
    held_objects = []
    for callee in function.info.callees:
        head, _, method = callee.partition(".")
        if method in HELD_OBJECT_METHOD_NAMES:
            made = analysis.project.module_object(function.ref.module, function.info, head)
            if made is not None and (
                made in UNTRACEABLE_OBJECT_METHODS
                or made in TRACED_DRAW_METHODS
                or made == REGEX_PATTERN_MAKER
                or made.startswith(OPTIMIZER_MODULE)
            ):
                held_objects.append(f"{head}={made}")
    unenterable_calls = []
    method_holders = []
    optional_key_dicts = []
    uncallable_calls = []
    for callee in function.info.callees:
        made_class = analysis.project.constructed(function.ref.module, function.info, callee)
        if made_class is None:
            continue
        base = analysis.project.unenterable_base(made_class)
        if base is not None:
            unenterable_calls.append(f"{callee}={base}")
        if analysis.project.holds_own_methods(made_class):
            method_holders.append(callee)
        if analysis.project.makes_optional_keys(made_class):
            optional_key_dicts.append(callee)
        uncallable = analysis.project.uncallable_base(made_class)
        if uncallable is not None:
            uncallable_calls.append(f"{callee}={uncallable}")
    attributes = []
    class_name = function.info.class_name
    classes = analysis.project.by_module[function.ref.module].classes
    module_method = class_name in classes and analysis.project.is_module_class(
        DefinitionRef(function.ref.module, class_name)
    )
    if class_name is not None:
        read = {c[5:] for c in function.info.callees if c.startswith("self.") and c.count(".") == 1}
        for attribute in sorted(read):
            value = analysis.self_attribute(function.ref.module, class_name, attribute)
            if value in ("T", "B", "C"):
                attributes.append(f"{attribute}={_NAMES[_atom(value)]}")
    return dataclasses.replace(
        scoped,
        parameter_kinds=tuple(parameters),
        call_kinds=tuple(calls),
        project_calls=tuple(project_calls),
        attribute_kinds=tuple(attributes),
        held_objects=tuple(dict.fromkeys(held_objects)),
        unenterable_calls=tuple(dict.fromkeys(unenterable_calls)),
        method_holders=tuple(method_holders),
        optional_key_dicts=tuple(optional_key_dicts),
        uncallable_calls=tuple(dict.fromkeys(uncallable_calls)),
        module_method=module_method,
    )
