"""Small libcst helpers shared by rules (libcst.matchers costs 0.45 s to import: not used)."""

from __future__ import annotations

import libcst as cst


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def method_call(node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(receiver, method name) for `receiver.method(...)`, else None."""
    if isinstance(node.func, cst.Attribute):
        return node.func.value, node.func.attr.value
    return None
