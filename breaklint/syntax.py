"""Small libcst helpers shared by rules (libcst.matchers costs 0.45 s to import: not used)."""

from __future__ import annotations

import functools
from collections.abc import Callable

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


def _skip_validation(node: cst.CSTNode) -> None:
    pass


def parse_module(source: str) -> cst.Module:
    """`cst.parse_module` without re-validating each node the parser builds.

    A parsed tree is valid by construction (libcst's own PERF note in `CSTNode.__post_init__`
    says as much); the check cost about 8% of the static phase. Restored on the way out, so
    nodes built anywhere else are still validated.
    """
    validate = cst.CSTNode.__post_init__
    cst.CSTNode.__post_init__ = _skip_validation  # type: ignore[method-assign]
    try:
        return cst.parse_module(source)
    finally:
        cst.CSTNode.__post_init__ = validate  # type: ignore[method-assign]


@functools.cache
def _visitor_method_names(cls: type) -> tuple[str, ...]:
    # Only our own classes: libcst's bases define a no-op for every node type, and `dir()` over
    # those hundreds of names cost 0.1 s per process.
    return tuple(
        {
            name: None
            for klass in reversed(cls.__mro__)
            if issubclass(klass, BatchedVisitor)
            for name, value in vars(klass).items()
            if name.startswith(("visit_", "leave_")) and callable(value)
        }
    )


class BatchedVisitor(cst.BatchableCSTVisitor):
    """A batchable visitor whose method table is computed once per class, not per instance.

    libcst's default `get_visitors` runs `inspect.getmembers` on every instance: with one
    visitor per rule per function that dominated the whole static phase.
    """

    def get_visitors(self) -> dict[str, Callable[[cst.CSTNode], None]]:
        return {name: getattr(self, name) for name in _visitor_method_names(type(self))}


# Nodes that hold only whitespace and punctuation: no visitor method ever fires inside them.
_TRIVIA_MODULES = frozenset({"libcst._nodes.whitespace", "libcst._nodes.op"})


class _FieldRecorder(cst.CSTVisitor):
    """Records the order in which libcst visits one node's fields, without entering them."""

    def __init__(self, root: cst.CSTNode) -> None:
        self.root = root
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return node is self.root

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if node is self.root:
            self.fields.append(attribute)


_FIELD_ORDER: dict[type, tuple[str, ...]] = {}


def _field_order(node: cst.CSTNode) -> tuple[str, ...]:
    order = _FIELD_ORDER.get(type(node))
    if order is None:
        recorder = _FieldRecorder(node)
        node.visit(recorder)
        order = _FIELD_ORDER[type(node)] = tuple(recorder.fields)
    return order


@functools.cache
def _node_types() -> frozenset[type]:
    # A set lookup: `isinstance` against the abstract CSTNode is slow in a hot loop.
    found: set[type] = set()
    pending = [cst.CSTNode]
    while pending:
        kind = pending.pop()
        found.add(kind)
        pending.extend(kind.__subclasses__())
    return frozenset(found)


def walk(root: cst.CSTNode, visitors: list[BatchedVisitor]) -> None:
    """Call the visitors' `visit_X`/`leave_X` (and `_attr`) methods in `cst.visit_batched`'s order.

    libcst's own traversal rebuilds every node on the way out even for read-only visitors; this
    one only reads. As in `visit_batched`, every child is visited whatever `visit_X` returns.
    """
    methods: dict[str, list[Callable[[cst.CSTNode], None]]] = {}
    for visitor in visitors:
        for name, method in visitor.get_visitors().items():
            methods.setdefault(name, []).append(method)
    handled = {name.split("_", 2)[1] for name in methods}  # "visit_If_body" -> "If"
    node_types = _node_types()
    none: list[Callable[[cst.CSTNode], None]] = []
    plans: dict[type, tuple] = {}

    def plan(kind: type, node: cst.CSTNode) -> tuple:
        name = kind.__name__
        if kind.__module__ in _TRIVIA_MODULES and name not in handled:
            result: tuple = ()
        else:
            fields = tuple(
                (
                    field,
                    methods.get(f"visit_{name}_{field}", none),
                    methods.get(f"leave_{name}_{field}", none),
                )
                for field in _field_order(node)
            )
            result = (
                methods.get(f"visit_{name}", none),
                fields,
                methods.get(f"leave_{name}", none),
            )
        plans[kind] = result
        return result

    def visit(node: cst.CSTNode) -> None:
        kind = type(node)
        steps = plans.get(kind)
        if steps is None:
            steps = plan(kind, node)
        if not steps:
            return
        before, fields, after = steps
        for method in before:
            method(node)
        for field, enter, leave in fields:
            for method in enter:
                method(node)
            value = getattr(node, field)
            kind = type(value)
            if kind in node_types:
                visit(value)
            elif kind is tuple or kind is list:
                for child in value:
                    visit(child)
            for method in leave:
                method(node)
        for method in after:
            method(node)

    visit(root)
