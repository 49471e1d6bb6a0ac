"""What a class's methods assign to `self.<attribute>`, for rules about a method's submodules."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from breaklint.syntax import dotted, expand_import

_BLOCKS = ("body", "orelse", "finalbody")


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
        self._constants: dict[str, tuple[str, ...]] = {}

    def callees(self, attribute: str) -> tuple[str, ...]:
        if self._callees is None:
            self._collect()
        assert self._callees is not None
        return self._callees.get(attribute, ())

    def constant_types(self, attribute: str) -> tuple[str, ...]:
        """The types of the constants assigned to `self.<attribute>` (`bool`, `int`...)."""
        if self._callees is None:
            self._collect()
        return self._constants.get(attribute, ())

    def _collect(self) -> None:
        callees: dict[str, set[str]] = {}
        constants: dict[str, set[str]] = {}
        for method in self._methods:
            for statement in _statements(method.body):
                if not isinstance(statement, ast.Assign):
                    continue
                value = statement.value
                if isinstance(value, ast.Call):
                    callee = dotted(value.func)
                    if callee is None:
                        continue
                    found, what = callees, expand_import(callee, self._imports)
                elif isinstance(value, ast.Constant):
                    found, what = constants, type(value.value).__name__
                else:
                    continue
                for target in statement.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                    ):
                        found.setdefault(target.attr, set()).add(what)
        self._callees = {attribute: tuple(sorted(c)) for attribute, c in callees.items()}
        self._constants = {attribute: tuple(sorted(c)) for attribute, c in constants.items()}


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a block and of the blocks inside it, not of nested definitions."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for name in _BLOCKS:
            yield from _statements(getattr(statement, name, []))
        for handler in getattr(statement, "handlers", []):
            yield from _statements(handler.body)
