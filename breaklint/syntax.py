"""Small `ast` helpers shared by rules, and the one read-only traversal that runs them all.

Rules are visitors with libcst-style hooks on `ast` nodes: `visit_Call(node)` before a node's
children, `leave_Call(node)` after them, and `visit_If_body(node)` / `leave_If_body(node)`
around one field. Many visitors share one traversal of each function.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from breaklint.knowledge.curated import GENERATOR_BUILTINS, MODULE_GENERATOR_METHODS


def expand_import(name: str, imports: dict[str, str]) -> str:
    """Expand a dotted name's first component through an import table: `nn.Module` ->
    `torch.nn.Module`."""
    head, _, rest = name.partition(".")
    target = imports.get(head)
    if target is None:
        return name
    return f"{target}.{rest}" if rest else target


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    # The shapes nearly every call asks about first, without building a list: the hot path.
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute and type(node.value) is ast.Name:
        return f"{node.value.id}.{node.attr}"
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def makes_generator(node: ast.expr) -> bool:
    """A generator expression, `enumerate(...)` (a generator to Dynamo), or an `nn.Module`
    generator of the instance or its submodules (`self.parameters()`,
    `self.encoder.modules()`): what Dynamo cannot rebuild after a break."""
    if type(node) is ast.GeneratorExp:
        return True
    if type(node) is not ast.Call:
        return False
    if type(node.func) is ast.Name:
        return node.func.id in GENERATOR_BUILTINS
    if type(node.func) is not ast.Attribute:
        return False
    written = dotted(node.func)
    return (
        node.func.attr in MODULE_GENERATOR_METHODS
        and written is not None
        and written.partition(".")[0] == "self"
    )


def excerpt(node: ast.AST, limit: int = 48) -> str:
    """The code of `node` on one line, shortened to `limit` characters, for a hint that names
    what the user wrote."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


class Visitor:
    """Base of rules and the facts visitor: hooks are methods named after node types."""


# Fields that never hold a node a rule looks at: names, flags, operators, load/store markers.
_NOT_CHILDREN = frozenset(
    {
        "ctx", "op", "ops", "id", "attr", "arg", "name", "names", "kind", "type_comment",
        "module", "level", "is_async", "conversion", "tag",
    }
)  # fmt: skip
# Children in the order they appear in the source (ast lists decorators and an `IfExp`'s
# test after what they precede), so that "the first break in a loop" is the first one read.
_SOURCE_ORDER: dict[type, tuple[str, ...]] = {
    ast.IfExp: ("body", "test", "orelse"),
    ast.FunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.AsyncFunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.ClassDef: ("decorator_list", "bases", "keywords", "body"),
    ast.Constant: (),  # its `value` is a Python object
}
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# What `child_fields` has answered, for a hot loop to read without a call (then ask it on a
# miss: `FIELDS.get(kind) or child_fields(kind)`).
FIELDS: Mapping[type, tuple[str, ...]] = _CHILD_FIELDS


def child_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    """The fields of a node type that hold child nodes, in source order."""
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _SOURCE_ORDER.get(kind)
        if fields is None:
            fields = tuple(f for f in kind._fields if f not in _NOT_CHILDREN)
        _CHILD_FIELDS[kind] = fields
    return fields


def iter_nodes(root: ast.AST) -> Iterator[ast.AST]:
    """Every node under `root` (included), depth first; faster than `ast.walk`."""
    pending = [root]
    pop, push, extend = pending.pop, pending.append, pending.extend
    while pending:
        node = pop()
        yield node
        for field in child_fields(type(node)):
            value = getattr(node, field, None)
            if type(value) is list:
                extend(child for child in reversed(value) if isinstance(child, ast.AST))
            elif isinstance(value, ast.AST):
                push(value)


# The fields of statements that hold other statements.
STATEMENT_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def own_expressions(statement: ast.stmt) -> Iterator[ast.AST]:
    """Every node of a statement's own expressions (an `if`'s test, an assignment's targets
    and value), not of the statements it holds."""
    for field in child_fields(type(statement)):
        if field in STATEMENT_BLOCKS:
            continue
        value = getattr(statement, field, None)
        for part in value if type(value) is list else [value]:
            if isinstance(part, ast.AST):
                yield from iter_nodes(part)


def nodes_in_walk_order(root: ast.AST) -> Iterator[ast.AST]:
    """Every node under `root` (included) in the order `walk` visits them: depth first, each
    node before its children, children in source order."""
    pending = [root]
    while pending:
        node = pending.pop()
        yield node
        children: list[ast.AST] = []
        for field in child_fields(type(node)):
            value = getattr(node, field, None)
            if type(value) is list:
                children.extend(child for child in value if isinstance(child, ast.AST))
            elif isinstance(value, ast.AST):
                children.append(value)
        pending.extend(reversed(children))


def contains(tree: ast.AST, node: ast.AST) -> bool:
    return any(child is node for child in iter_nodes(tree))


_Hooks = tuple[tuple[int, Callable[..., None]], ...]  # (visitor position, unbound method)
# A node type's hooks before its children, its child fields, the hooks before and after each
# field (None when no visitor has any: the common case, walked without them), its hooks after.
_Plan = tuple[_Hooks, tuple[str, ...], dict[str, tuple[_Hooks, _Hooks]] | None, _Hooks]
# Values of fields that are not nodes (`kw_defaults` holds None for no default).
SCALARS = frozenset({type(None), str, bytes, int, float, complex, bool, type(...)})
# Per combination of visitor classes (one per rule set the prefilter keeps: hundreds a run),
# what its plans are made from (`_Combination`), the plan of each node type, and the types not
# worth a call, having neither hooks nor children.
_PLANS: dict[tuple[type, ...], tuple[_Combination, dict[type, _Plan], set[type]]] = {}
# Per visitor class, its hooks by method name: a missing attribute looked up on a class (the
# common case) costs a search of its bases and an exception each time.
_HOOKS: dict[type, dict[str, Callable[..., None]]] = {}
# The node type of each name a hook around a field is named after (`If_body`).
_FIELD_HOOK_KINDS = {
    f"{kind.__name__}_{field}": kind
    for kind in vars(ast).values()
    if isinstance(kind, type) and issubclass(kind, ast.AST)
    for field in kind._fields
}


def _hooks_of(cls: type) -> dict[str, Callable[..., None]]:
    found = _HOOKS.get(cls)
    if found is None:
        found = _HOOKS[cls] = {
            attribute: function
            for attribute in dir(cls)
            if attribute.startswith(("visit_", "leave_"))
            and (function := getattr(cls, attribute)) is not None
        }
    return found


@dataclass(frozen=True, slots=True)
class _Combination:
    """The hook tables of a combination of visitor classes, in order, and the node types any
    of them hooks around a field of: most have none, and a plan then asks no visitor for its
    fields' hooks (asking each for each field's two was most of a plan's cost)."""

    tables: tuple[dict[str, Callable[..., None]], ...]
    fielded: frozenset[type]

    @classmethod
    def of(cls, classes: tuple[type, ...]) -> _Combination:
        tables = tuple(_hooks_of(visitor) for visitor in classes)
        fielded = frozenset(
            kind
            for table in tables
            for method in table
            if (kind := _FIELD_HOOK_KINDS.get(method[6:])) is not None  # after `visit_`, `leave_`
        )
        return cls(tables, fielded)

    def hooks(self, method: str) -> _Hooks:
        return tuple(
            (position, function)
            for position, table in enumerate(self.tables)
            if (function := table.get(method)) is not None
        )

    def plan(self, kind: type) -> _Plan:
        name = kind.__name__
        names = child_fields(kind)
        around = None
        if kind in self.fielded:
            around = {
                field: (self.hooks(f"visit_{name}_{field}"), self.hooks(f"leave_{name}_{field}"))
                for field in names
            }
        return self.hooks(f"visit_{name}"), names, around, self.hooks(f"leave_{name}")


def walk(root: ast.AST, visitors: Sequence[Visitor], annotations: bool = True) -> None:
    """Call every visitor's hooks over `root`'s tree, depth first, in source order.

    Unlike `ast.NodeVisitor`, hooks never decide whether children are visited: each visitor
    sees every node, so many rules share one pass. Operators and load/store markers are not
    visited. Without `annotations`, a function `root`'s own parameter and return annotations
    are not walked (its parameters are): Python evaluates them where the function is defined,
    not in the frame that runs it (those of the functions it defines are walked).
    """
    classes = tuple(type(visitor) for visitor in visitors)
    combination, plans, skip = _PLANS.get(classes) or _PLANS.setdefault(
        classes, (_Combination.of(classes), {}, set(SCALARS))
    )
    # `visit` refers to itself through its closure, a cycle only the cyclic collector frees:
    # emptied once the walk ends, it no longer holds the visitors and the nodes they keep.
    active = list(visitors)

    def visit(node: ast.AST) -> None:
        kind = type(node)
        plan = plans.get(kind)
        if plan is None:
            plan = plans[kind] = combination.plan(kind)
            if not (plan[0] or plan[1] or plan[3]):
                skip.add(kind)
        before, names, around, after = plan
        for position, method in before:
            method(active[position], node)
        for field in names:
            if around is not None:
                for position, method in around[field][0]:
                    method(active[position], node)
            value: Any = getattr(node, field, None)  # a node, a list, None or a scalar
            if type(value) is list:
                for child in value:
                    if type(child) not in skip:
                        visit(child)
            elif type(value) not in skip:
                visit(value)
            if around is not None:
                for position, method in around[field][1]:
                    method(active[position], node)
        for position, method in after:
            method(active[position], node)

    try:
        if annotations or not isinstance(root, ast.FunctionDef | ast.AsyncFunctionDef):
            visit(root)
            return
        # The root by hand, as `visit` would, without its `returns` and with its parameters
        # planned without their `annotation`; the plans are shared: restored after.
        plan = plans.get(type(root)) or plans.setdefault(type(root), combination.plan(type(root)))
        parameter = plans.get(ast.arg) or plans.setdefault(ast.arg, combination.plan(ast.arg))
        before, names, around, after = plan

        def call(hooks: _Hooks) -> None:
            for position, method in hooks:
                method(active[position], root)

        call(before)
        for field in (name for name in names if name != "returns"):
            call(() if around is None else around[field][0])
            if field == "args":
                plans[ast.arg] = (parameter[0], (), parameter[2], parameter[3])
                try:
                    visit(root.args)
                finally:
                    plans[ast.arg] = parameter
            else:
                for child in getattr(root, field):  # `decorator_list`, `body`
                    if type(child) not in skip:
                        visit(child)
            call(() if around is None else around[field][1])
        call(after)
    finally:
        active.clear()
