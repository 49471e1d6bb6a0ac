"""Type annotations read exactly: what a parameter annotated so may hold.

`dict[str, Tensor] | None` is a container (never a tensor: its truth is its length),
`Optional[Tensor]` a tensor, `int | Tensor` maybe a tensor (only a caller can tell), a string
annotation the annotation it spells, and a module's type alias (`Cache = dict[str, Tensor]`)
the annotation it names. Pure `ast`: the index and tensor-ness both read annotations here.
"""

from __future__ import annotations

import ast
from enum import Enum

from breaklint.syntax import dotted


class Reading(Enum):
    TENSOR = "tensor"
    MASK = "mask"  # a boolean tensor
    TENSORS = "tensors"  # a container of tensors
    MAYBE = "maybe"  # a tensor or another value (`int | Tensor`)
    PYTHON = "python"


_CONTAINERS = frozenset(
    {
        "list", "tuple", "dict", "set", "frozenset", "sequence", "mutablesequence", "iterable",
        "iterator", "mapping", "mutablemapping", "generator", "deque", "ordereddict",
        "defaultdict", "collection", "abstractset", "modulelist", "moduledict",
        "parameterlist", "parameterdict",
    }
)  # fmt: skip
_UNIONS = frozenset({"Union", "Optional"})
# No tensor is one of these (`TypeIs[Tensor]`, `TypeGuard[Tensor]`: a bool about one).
_NOT_VALUES = frozenset({"Callable", "Type", "type", "Literal", "TypeGuard", "TypeIs"})


def read_annotation(
    annotation: ast.expr | None, aliases: dict[str, str] | None = None
) -> Reading | None:
    """What an annotation admits; None when there is none. `aliases` maps the module's type
    aliases to their source text."""
    if annotation is None:
        return None
    return _read(annotation, aliases or {}, 0)


def _read(node: ast.expr, aliases: dict[str, str], depth: int) -> Reading:
    if depth > 8:  # an alias that names itself
        return Reading.PYTHON
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            parsed = _parse(node.value)
            return Reading.PYTHON if parsed is None else _read(parsed, aliases, depth + 1)
        return Reading.PYTHON  # `None`
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([node.left, node.right], aliases, depth)
    if isinstance(node, ast.Subscript):
        base = _base(node)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in _UNIONS:
            return _union(items, aliases, depth)
        if base == "Annotated":
            return _read(items[0], aliases, depth + 1)
        if base in _NOT_VALUES:
            return Reading.PYTHON
        inner = [_read(item, aliases, depth + 1) for item in items]
        holds_tensors = any(r is not Reading.PYTHON for r in inner)
        if base.lower() in _CONTAINERS:
            return Reading.TENSORS if holds_tensors else Reading.PYTHON
        # `Float[Tensor, "b n"]`, `Bool[Tensor, ...]`: an array type parameterised by its dtype.
        if inner and inner[0] in (Reading.TENSOR, Reading.MASK):
            return Reading.MASK if base == "Bool" else Reading.TENSOR
        return Reading.PYTHON
    name = dotted(node)
    if name is None:
        return Reading.PYTHON
    if name in aliases:
        parsed = _parse(aliases[name])
        return Reading.PYTHON if parsed is None else _read(parsed, aliases, depth + 1)
    last = name.rpartition(".")[2]
    if last == "BoolTensor":
        return Reading.MASK
    if last.endswith("Tensor") or last == "Parameter":
        return Reading.TENSOR
    return Reading.PYTHON


# Containers whose iteration yields their elements (a mapping's yields its keys).
_SEQUENCES = frozenset(
    {
        "list", "tuple", "set", "frozenset", "sequence", "mutablesequence", "iterable",
        "iterator", "deque", "collection", "abstractset", "modulelist", "parameterlist",
    }
)  # fmt: skip


def iterates_tensors(annotation: ast.expr | None, aliases: dict[str, str] | None = None) -> bool:
    """Whether every element iterating a value of this annotation gives is a tensor:
    `tuple[Tensor, ...]`, `list[Tensor]`, `Sequence[Tensor]` (with or without `Optional`),
    not `dict[str, Tensor]`, whose iteration gives keys."""
    if annotation is None:
        return False
    node = annotation
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        members = [m for m in (node.left, node.right) if not _is_none(m)]
        return len(members) == 1 and iterates_tensors(members[0], aliases)
    if not isinstance(node, ast.Subscript):
        return False
    base = _base(node)
    items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    if base == "Optional":
        return iterates_tensors(items[0], aliases)
    if base.lower() not in _SEQUENCES:
        return False
    elements = [i for i in items if not (isinstance(i, ast.Constant) and i.value is Ellipsis)]
    readings = [_read(item, aliases or {}, 1) for item in elements]
    return bool(readings) and all(r in (Reading.TENSOR, Reading.MASK) for r in readings)


_SCALARS = frozenset({"int", "float", "bool", "complex", "str", "bytes", "None", "NoneType"})


def admits_only_scalars(annotation: ast.expr | None, aliases: dict[str, str] | None = None) -> bool:
    """Whether an annotation admits Python numbers, strings and None and nothing else
    (`Optional[Union[float, int]]`, `int | None`, `Literal["mean", "sum"]`): unlike `Any` or
    a class, no tensor is one of these."""
    return annotation is not None and _scalars(annotation, aliases or {}, 0)


def _scalars(node: ast.expr, aliases: dict[str, str], depth: int) -> bool:
    if depth > 8:  # an alias that names itself
        return False
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            parsed = _parse(node.value)
            return parsed is not None and _scalars(parsed, aliases, depth + 1)
        return node.value is None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return all(_scalars(side, aliases, depth + 1) for side in (node.left, node.right))
    if isinstance(node, ast.Subscript):
        base = _base(node)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base == "Literal":
            return True
        return base in _UNIONS and all(_scalars(item, aliases, depth + 1) for item in items)
    name = dotted(node)
    if name in aliases:
        parsed = _parse(aliases[name])
        return parsed is not None and _scalars(parsed, aliases, depth + 1)
    return name in _SCALARS


def optional_member(annotation: ast.expr | None) -> ast.expr | None:
    """What `Optional[X]`, `Union[X, None]` or `X | None` admits besides None (`X`); the
    annotation itself otherwise."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        members = [annotation.left, annotation.right]
    elif isinstance(annotation, ast.Subscript) and _base(annotation) in _UNIONS:
        inner = annotation.slice
        members = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
    else:
        return annotation
    others = [member for member in members if not _is_none(member)]
    return others[0] if len(others) == 1 else annotation


# The qualifiers that make one key of a TypedDict required or optional whatever its class's
# `total` says (PEP 655): True, required.
_KEY_QUALIFIERS = {"Required": True, "NotRequired": False}


def declares_optional_keys(node: ast.ClassDef, postponed: bool) -> bool:
    """Whether a class body declares a key that a TypedDict makes optional: under `total=False`
    one not marked `Required[...]`, or one marked `NotRequired[...]` (whether the class is a
    TypedDict is its bases' question). The class reads a qualifier only from an annotation
    evaluated when it is made: not from a string, nor anywhere in a module that postpones
    its annotations (`from __future__ import annotations`; measured with Python 3.11)."""
    total = next((keyword.value for keyword in node.keywords if keyword.arg == "total"), None)
    required = not (isinstance(total, ast.Constant) and total.value is False)
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        annotation = item.annotation
        qualified = isinstance(annotation, ast.Subscript) and not postponed
        qualifier = _base(annotation) if isinstance(annotation, ast.Subscript) else ""
        if not (_KEY_QUALIFIERS.get(qualifier, required) if qualified else required):
            return True
    return False


def _base(node: ast.Subscript) -> str:
    """`Optional` of `typing.Optional[X]`."""
    return (dotted(node.value) or "").rpartition(".")[2]


def _is_none(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and node.value is None) or dotted(node) == "NoneType"


def _union(members: list[ast.expr], aliases: dict[str, str], depth: int) -> Reading:
    readings = {
        _read(member, aliases, depth + 1)
        for member in members
        if not (isinstance(member, ast.Constant) and member.value is None)
        and dotted(member) != "NoneType"
    }
    if not readings:
        return Reading.PYTHON
    if len(readings) == 1:
        return readings.pop()
    if readings <= {Reading.TENSOR, Reading.MASK}:
        return Reading.TENSOR
    if readings & {Reading.TENSOR, Reading.MASK, Reading.MAYBE}:
        return Reading.MAYBE
    return Reading.TENSORS if Reading.TENSORS in readings else Reading.PYTHON


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


def alias_text(value: ast.expr) -> str | None:
    """The source of a module-level assignment's value when it may be a type alias that a
    tensor annotation depends on (`Cache = dict[str, Tensor]`), else None."""
    if not isinstance(value, ast.Subscript | ast.BinOp | ast.Attribute | ast.Name):
        return None
    text = ast.unparse(value)
    return text if "Tensor" in text else None
