"""What a class's methods assign to `self.<attribute>`, for rules about a method's submodules."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from breaklint.syntax import dotted, expand_import

_BLOCKS = ("body", "orelse", "finalbody")


class SelfAssignments:
    """`self.<attribute> = <callee>(...)` in the methods of one class, as the callees' dotted
    names with imports resolved (`{"lstm": ("torch.nn.LSTM",)}`). Found on first use: most
    methods never ask."""

    def __init__(
        self, methods: Sequence[ast.FunctionDef | ast.AsyncFunctionDef], imports: dict[str, str]
    ) -> None:
        self._methods = methods
        self._imports = imports
        self._callees: dict[str, tuple[str, ...]] | None = None

    def callees(self, attribute: str) -> tuple[str, ...]:
        if self._callees is None:
            self._callees = self._collect()
        return self._callees.get(attribute, ())

    def _collect(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, set[str]] = {}
        for method in self._methods:
            for statement in _statements(method.body):
                if not (
                    isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
                ):
                    continue
                callee = dotted(statement.value.func)
                if callee is None:
                    continue
                for target in statement.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                    ):
                        resolved = expand_import(callee, self._imports)
                        found.setdefault(target.attr, set()).add(resolved)
        return {attribute: tuple(sorted(callees)) for attribute, callees in found.items()}


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
