"""Small `ast` helpers shared by rules, and the one read-only traversal that runs them all.

Rules are visitors with libcst-style hooks on `ast` nodes: `visit_Call(node)` before a node's
children, `leave_Call(node)` after them, and `visit_If_body(node)` / `leave_If_body(node)`
around one field. Many visitors share one traversal of each function.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable

Hook = Callable[[ast.AST], None]


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def method_call(node: ast.Call) -> tuple[ast.expr, str] | None:
    """(receiver, method name) for `receiver.method(...)`, else None."""
    if isinstance(node.func, ast.Attribute):
        return node.func.value, node.func.attr
    return None


def negated(node: ast.expr) -> ast.expr | None:
    """`x` for `not x`, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    return None


def without_not(node: ast.expr) -> ast.expr:
    """`x` for `not not x`, `not x` and `x` alike."""
    while (operand := negated(node)) is not None:
        node = operand
    return node


def contains(tree: ast.AST, node: ast.AST) -> bool:
    return any(child is node for child in ast.walk(tree))


class Visitor:
    """Base of rules and the facts visitor: hook methods are found once per class."""

    def hooks(self) -> dict[str, Hook]:
        return {name: getattr(self, name) for name in _hook_names(type(self))}


@functools.cache
def _hook_names(cls: type) -> tuple[str, ...]:
    return tuple(
        name
        for name in dir(cls)
        if name.startswith(("visit_", "leave_")) and callable(getattr(cls, name))
    )


# Children in the order they appear in the source (ast lists decorators and an `IfExp`'s
# test after what they precede), so that "the first break in a loop" is the first one read.
_SOURCE_ORDER: dict[type, tuple[str, ...]] = {
    ast.IfExp: ("body", "test", "orelse"),
    ast.FunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.AsyncFunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.ClassDef: ("decorator_list", "bases", "keywords", "body"),
}
# Operators and load/store markers: leaves that no rule looks into.
_LEAF_BASES = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def walk(root: ast.AST, visitors: list[Visitor]) -> None:
    """Call every visitor's hooks over `root`'s tree, depth first, in source order.

    Unlike `ast.NodeVisitor`, hooks never decide whether children are visited: each visitor
    sees every node, so many rules can share one pass.
    """
    methods: dict[str, list[Hook]] = {}
    for visitor in visitors:
        for name, method in visitor.hooks().items():
            methods.setdefault(name, []).append(method)
    none: list[Hook] = []
    plans: dict[type, tuple] = {}

    def plan(kind: type) -> tuple:
        name = kind.__name__
        if issubclass(kind, _LEAF_BASES) and not any(
            f"{prefix}{name}" in methods for prefix in ("visit_", "leave_")
        ):
            result: tuple = ()
        else:
            fields = tuple(
                (
                    field,
                    methods.get(f"visit_{name}_{field}", none),
                    methods.get(f"leave_{name}_{field}", none),
                )
                for field in _SOURCE_ORDER.get(kind, kind._fields)
            )
            result = (
                methods.get(f"visit_{name}", none),
                fields,
                methods.get(f"leave_{name}", none),
            )
        plans[kind] = result
        return result

    def visit(node: ast.AST) -> None:
        steps = plans.get(type(node))
        if steps is None:
            steps = plan(type(node))
        if not steps:
            return
        before, fields, after = steps
        for method in before:
            method(node)
        for field, enter, leave in fields:
            for method in enter:
                method(node)
            value = getattr(node, field, None)
            if type(value) is list:
                for child in value:
                    if isinstance(child, ast.AST):  # `kw_defaults` holds None for no default
                        visit(child)
            elif isinstance(value, ast.AST):
                visit(value)
            for method in leave:
                method(node)
        for method in after:
            method(node)

    visit(root)
