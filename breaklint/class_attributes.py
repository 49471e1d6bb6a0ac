"""What a class's methods assign to `self.<attribute>`, for rules about a method's submodules."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping, Sequence

from breaklint.syntax import dotted, expand_import


def public_module_name(constructor: str) -> str:
    """A torch module's constructor by its public name: `torch.nn.modules.rnn.LSTM` ->
    `torch.nn.LSTM`."""
    if constructor.startswith("torch.nn.modules."):
        return f"torch.nn.{constructor.rpartition('.')[2]}"
    return constructor


class SelfAssignments:
    """`self.<attribute> = <callee>(...)` in the methods of one class, as the callees' dotted
    names with imports resolved (`{"lstm": ("torch.nn.LSTM",)}`), and `self.<attribute> =
    <constant>` as the constants' types (`{"step": ("int",)}`). Found on first use: most
    methods never ask."""

    def __init__(
        self, methods: Sequence[ast.FunctionDef | ast.AsyncFunctionDef], imports: dict[str, str]
    ) -> None:
        self._methods = methods
        self._imports = imports
        self._callees: dict[str, tuple[str, ...]] | None = None
        self._made: frozenset[str] = frozenset()
        self._constants_made: frozenset[str] = frozenset()
        self._constants: dict[str, tuple[str, ...]] = {}
        self._passed_in: frozenset[str] | None = None

    def passed_in(self, attribute: str) -> bool:
        """Whether a method sets `self.<attribute>` to one of its own parameters
        (`self.handler = handler`): an object made before the method ran."""
        if self._passed_in is None:
            passed: set[str] = set()
            for method in self._methods:
                arguments = method.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                parameters = {argument.arg for argument in every[1:]} | {
                    argument.arg for argument in (arguments.vararg, arguments.kwarg) if argument
                }
                passed.update(
                    target.attr
                    for statement in _assignments([method])
                    if type(statement.value) is ast.Name and statement.value.id in parameters
                    for target in statement.targets
                    if type(target) is ast.Attribute
                    and type(target.value) is ast.Name
                    and target.value.id == "self"
                )
            self._passed_in = frozenset(passed)
        return attribute in self._passed_in

    def callees(self, attribute: str) -> tuple[str, ...]:
        if self._callees is None:
            self._collect()
        assert self._callees is not None
        return self._callees.get(attribute, ())

    def made(self) -> frozenset[str]:
        """Every callee any attribute is assigned from (what `callees` may answer)."""
        if self._callees is None:
            self._collect()
        return self._made

    def constants_made(self) -> frozenset[str]:
        """Every type of constant any attribute is assigned (what `constant_types` may
        answer)."""
        if self._callees is None:
            self._collect()
        return self._constants_made

    def constant_types(self, attribute: str) -> tuple[str, ...]:
        """The types of the constants assigned to `self.<attribute>` (`bool`, `int`...)."""
        if self._callees is None:
            self._collect()
        return self._constants.get(attribute, ())

    def _collect(self) -> None:
        callees: dict[str, set[str]] = {}
        constants: dict[str, set[str]] = {}
        for statement in _assignments(self._methods):
            value = statement.value
            if type(value) is ast.Call:
                callee = dotted(value.func)
                if callee is None:
                    continue
                found, what = callees, expand_import(callee, self._imports)
            elif type(value) is ast.Constant:
                found, what = constants, type(value.value).__name__
            else:
                continue
            for target in statement.targets:
                if (
                    type(target) is ast.Attribute
                    and type(target.value) is ast.Name
                    and target.value.id == "self"
                ):
                    found.setdefault(target.attr, set()).add(what)
        self._callees = {attribute: tuple(sorted(c)) for attribute, c in callees.items()}
        self._made = frozenset().union(*callees.values())
        self._constants_made = frozenset().union(*constants.values())
        self._constants = {attribute: tuple(sorted(c)) for attribute, c in constants.items()}


# Statements that hold blocks of statements, and what the blocks are: what `_assignments`
# descends into (not nested definitions, whose `self` is another, nor `match` cases).
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {
    ast.If: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "orelse", "finalbody"),
    ast.TryStar: ("body", "orelse", "finalbody"),
}

# The statements among them with `except` handlers, whose bodies are blocks too.
_HANDLED = frozenset({ast.Try, ast.TryStar})


def _assignments(methods: Sequence[ast.FunctionDef | ast.AsyncFunctionDef]) -> Iterator[ast.Assign]:
    """The assignments in the methods' blocks and in the blocks inside them, not in nested
    definitions, in no particular order (a loop, not recursion: this runs for every class
    whose methods are checked)."""
    pending = [statement for method in methods for statement in method.body]
    while pending:
        statement = pending.pop()
        if isinstance(statement, ast.Assign):
            yield statement
            continue
        fields = _BLOCK_FIELDS.get(type(statement))
        if fields is None:
            continue
        for name in fields:
            pending.extend(getattr(statement, name))
        if type(statement) in _HANDLED:  # not `getattr(..., "handlers", ())`: a miss raises
            for handler in statement.handlers:  # type: ignore[attr-defined]
                pending.extend(handler.body)


def made_by(
    receiver: ast.expr, held_objects: Mapping[str, str], assignments: SelfAssignments
) -> tuple[str, ...]:
    """The classes whose instance `receiver` holds, known from where it is made: a
    module-level object (here or imported, `held_objects`), or what a method of the class
    assigns to `self.<attribute>`."""
    if isinstance(receiver, ast.Name):
        held = held_objects.get(receiver.id)
        return () if held is None else (held,)
    if (
        isinstance(receiver, ast.Attribute)
        and isinstance(receiver.value, ast.Name)
        and receiver.value.id == "self"
    ):
        return assignments.callees(receiver.attr)
    return ()


def bind_made(
    made_here: dict[str, str],
    targets: Sequence[ast.expr],
    made: str | None,
    makers: Collection[str],
) -> None:
    """Record in `made_here` the locals an assignment binds (`lock = Lock()`) to the class
    among `makers` it makes (`made`, what the call resolves to), and forget those it rebinds
    to anything else."""
    for target in targets:
        if isinstance(target, ast.Name):
            if made in makers:
                assert made is not None
                made_here[target.id] = made
            else:
                made_here.pop(target.id, None)


def made_object(
    receiver: ast.expr,
    made_here: Mapping[str, str],
    assignments: SelfAssignments,
    makers: Collection[str],
) -> str | None:
    """The call among `makers` that made the object `receiver` holds, where it is known: a
    local the function bound to one (`made_here`), or an attribute every assignment of the
    class sets to one of them."""
    if isinstance(receiver, ast.Name):
        return made_here.get(receiver.id)
    if (
        isinstance(receiver, ast.Attribute)
        and isinstance(receiver.value, ast.Name)
        and receiver.value.id == "self"
    ):
        made = assignments.callees(receiver.attr)
        if made and all(maker in makers for maker in made):
            return made[0]
    return None
