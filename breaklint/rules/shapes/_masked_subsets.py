"""A computation on a masked subset (BL302's `masked-subset` fix), read from the dataflow of
one function: a mask `m`, the reads through it (`x[m]`, `w[m, :]`), the names computed from
them, and the writes back through it (`out[m] = y`). Computing on every element and keeping
the masked ones with `torch.where` gives the same values where the mask holds, with no
data-dependent size.

The plan is read from the function's `ast` alone (given the mask's name), both while linting,
to decide the fix, and by the rewrite, on the function's code as libcst holds it, so that the
two decide alike.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from breaklint.findings import Fix
from breaklint.syntax import dotted

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewritten

# Attributes of a value computed on the subset that do not depend on how many elements it has.
_METADATA = frozenset({"dtype", "device", "requires_grad", "is_cuda", "layout"})
# What reads or mixes the elements along the selected dimension (or its size): on every element
# these give another answer than on the subset.
_ACROSS = frozenset(
    {"shape", "size", "numel", "dim", "ndim", "sum", "mean", "prod", "max", "min", "amax"}
    | {"amin", "std", "var", "norm", "any", "all", "item", "tolist", "nonzero", "argmax"}
    | {"argmin", "sort", "argsort", "cumsum", "cumprod", "unique", "view", "reshape", "flatten"}
    | {
        "T",
        "mT",
        "t",
        "transpose",
        "permute",
        "logsumexp",
        "softmax",
        "log_softmax",
        "count_nonzero",
    }
    | {"median", "topk", "kthvalue", "flip", "roll", "cat", "stack", "len", "masked_select"}
)
# Functions that make a tensor of their argument's shape: a write target bound to one of them
# has the shape of a mask built from that argument.
_SAME_SHAPE_MAKERS = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "clone"})
_PURE: tuple[type[ast.AST], ...] = (ast.Name, ast.Attribute, ast.Constant, ast.UnaryOp)
_PURE += (ast.BinOp, ast.expr_context, ast.operator, ast.unaryop)
_CLOSED = {ast.GtE: "low", ast.LtE: "high"}  # `x >= low`, `x <= high`
_MIRRORED = {ast.GtE: ast.LtE, ast.LtE: ast.GtE}  # `low <= x` is `x >= low`
# Scopes of their own: a value used there is captured or iterated over, not computed on.
_NESTED: tuple[type[ast.AST], ...] = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)
_NESTED += (ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True, slots=True)
class Clamp:
    """The mask is a closed range test of one tensor (`(x >= lo) & (x <= hi)`): a read of that
    tensor through it becomes `x.clamp(lo, hi)`, equal where the mask holds and inside the range
    elsewhere, so the elements computed and then discarded stay in the computation's domain."""

    tensor: str
    low: str | None  # the bounds' code, None for an open side
    high: str | None


@dataclass(frozen=True, slots=True)
class SubsetPlan:
    """How the fix rewrites the function for one mask."""

    mask: str
    clamp: Clamp | None
    # Write targets known to have the mask's shape: written without aligning the mask.
    same_shape: frozenset[str]


def mask_selection(index: ast.expr, mask: str) -> bool | None:
    """For a subscript's index: True when it selects through the name `mask` first, with whole
    slices after it (`[m]`, `[m, :]`), None when it holds `mask` anywhere else, else False."""
    elements = index.elts if isinstance(index, ast.Tuple) else [index]
    first, rest = elements[0], elements[1:]
    if isinstance(first, ast.Name) and first.id == mask:
        whole = all(
            isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None
            for e in rest
        )
        return True if whole else None
    used = any(isinstance(n, ast.Name) and n.id == mask for n in ast.walk(index))
    return None if used else False


def subset_plan(definition: ast.FunctionDef | ast.AsyncFunctionDef, mask: str) -> SubsetPlan | None:
    """The plan of the `masked-subset` fix for `mask` in `definition`, or None where the function
    does not have that form: the mask bound once, every read through it and every name computed
    from one used only to compute further names, in writes back through the mask
    (`out[m] = y`, `out` not computed from the subset) or for its dtype or device, and nothing
    read across the selected elements (a reduction, a size, an index along them)."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(definition):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    bindings = [
        node
        for node in ast.walk(definition)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id == mask
    ]
    if len(bindings) != 1 or not isinstance(parents.get(id(bindings[0])), ast.Assign):
        return None
    binding = parents[id(bindings[0])]
    assert isinstance(binding, ast.Assign)
    if len(binding.targets) != 1:
        return None
    reads: list[ast.Subscript] = []
    writes: list[ast.Assign] = []
    for node in ast.walk(definition):
        if not isinstance(node, ast.Subscript):
            continue
        selects = mask_selection(node.slice, mask)
        if selects is None:
            return None
        if not selects:
            continue
        if isinstance(node.ctx, ast.Load):
            reads.append(node)
            continue
        statement = parents.get(id(node))
        if not (
            isinstance(node.ctx, ast.Store)
            and isinstance(statement, ast.Assign)
            and statement.targets == [node]
            and dotted(node.value) is not None
            and isinstance(node.slice, ast.Name)
        ):
            return None  # `x[m] += y`, `del x[m]`, `a, x[m] = ...`: other fixes' or none
        writes.append(statement)
    derived = _derived_names(definition, reads)
    if derived is None or any(
        isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in derived
        for n in ast.walk(definition)
    ):
        return None  # `y += 1`: read whole, `y` may be the tensor itself, updated in place
    uses = reads + [
        node
        for node in ast.walk(definition)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in derived
    ]
    written = {dotted(w.targets[0].value) for w in writes}  # type: ignore[attr-defined]
    if written & derived:
        return None
    read_ids = {id(read) for read in reads}
    subsets = [  # each value is the subset's (or a number), as `torch.where` takes it
        _reads_any(w.value, derived) or any(id(n) in read_ids for n in ast.walk(w.value))
        for w in writes
    ]
    if not any(subsets) or not all(
        subset or isinstance(w.value, ast.Constant)
        for w, subset in zip(writes, subsets, strict=True)
    ):
        return None
    if not all(_used_on_the_subset(use, parents, mask) for use in uses):
        return None
    clamp = _clamp(binding.value)
    if clamp is not None and not _unchanged_after(definition, binding, clamp):
        return None
    source = _shape_source(binding.value)
    same = frozenset(
        name for name in written if name is not None and _same_shape(definition, name, source)
    )
    return SubsetPlan(mask, clamp, same)


def _derived_names(
    definition: ast.FunctionDef | ast.AsyncFunctionDef, reads: list[ast.Subscript]
) -> set[str] | None:
    """The names bound to values computed from the reads through the mask, through names
    computed from them in turn; None when such a value is bound to anything but names."""
    read_ids = {id(read) for read in reads}
    derived: set[str] = set()
    statements = [
        node for node in ast.walk(definition) if isinstance(node, ast.Assign | ast.AugAssign)
    ]
    changed = True
    while changed:
        changed = False
        for statement in statements:
            if not any(
                id(n) in read_ids
                or (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in derived)
                for n in ast.walk(statement.value)
            ):
                continue
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names = [n for t in targets for n in _target_names(t)]
            if isinstance(statement, ast.Assign) and all(
                isinstance(t, ast.Subscript) for t in targets
            ):
                continue  # a write back, checked by the caller
            if None in names:
                return None
            new = {n for n in names if n is not None} - derived
            if new:
                derived |= new
                changed = True
    return derived


def _target_names(target: ast.expr) -> list[str | None]:
    """The names an assignment target binds; None for a part that is not a name."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for element in target.elts for n in _target_names(element)]
    return [None]


def _reads_any(value: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(value))


def _used_on_the_subset(use: ast.expr, parents: dict[int, ast.AST], mask: str) -> bool:
    """Whether a read through the mask or of a derived name is used elementwise on the subset:
    in the value of an assignment to names or of a write back, or for its metadata; not read
    across its elements, changed in place (a read through a mask is a copy, read whole it is
    the tensor), returned, stored elsewhere or captured by another scope."""
    child: ast.AST = use
    parent = parents.get(id(use))
    if isinstance(parent, ast.Attribute) and parent.attr in _METADATA:
        return True
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, _NESTED):
            return False
        if isinstance(parent, ast.Attribute) and parent.value is child:
            attribute = parent.attr
            if attribute in _ACROSS or (attribute.endswith("_") and not attribute.endswith("__")):
                return False  # across the elements, or in place: read whole, it is the tensor
        if isinstance(parent, ast.Subscript) and parent.value is child:
            elements = parent.slice.elts if isinstance(parent.slice, ast.Tuple) else [parent.slice]
            leading = elements[0]
            if not (isinstance(leading, ast.Constant) and leading.value is Ellipsis):
                return False  # `y[0]`, `y[:, 1]`: along the selected dimension
        if isinstance(parent, ast.Subscript) and parent.slice is child:
            return False  # an index: a discarded element's value may be out of range
        if isinstance(parent, ast.Call) and child is not parent.func:
            name = dotted(parent.func)
            if name is not None and name.rpartition(".")[2] in _ACROSS:
                return False
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, ast.Assign) and child is parent.value:
        targets = parent.targets
        names = all(None not in _target_names(t) for t in targets)
        write = len(targets) == 1 and isinstance(targets[0], ast.Subscript)
        return names or (write and mask_selection(targets[0].slice, mask) is True)  # type: ignore[attr-defined]
    return False


def _clamp(mask: ast.expr) -> Clamp | None:
    """The range a mask tests one tensor for, when it is `&` of closed comparisons of that
    tensor (a name) with bounds: `(x >= lo) & (x <= hi)`, `lo <= x`."""
    parts: list[ast.expr] = []
    pending = [mask]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            pending += [node.right, node.left]
        else:
            parts.append(node)
    tensor: str | None = None
    bounds: dict[str, str] = {}
    for part in parts:
        if not isinstance(part, ast.Compare) or len(part.ops) != 1:
            return None
        op, left, right = type(part.ops[0]), part.left, part.comparators[0]
        if op not in _CLOSED:
            return None
        if not isinstance(left, ast.Name):
            op, left, right = _MIRRORED[op], right, left
        if not isinstance(left, ast.Name) or (tensor is not None and left.id != tensor):
            return None
        if _names(right) & {left.id} or not _pure(right):
            return None
        tensor = left.id
        side = _CLOSED[op]
        if side in bounds:
            return None
        bounds[side] = ast.unparse(right)
    if tensor is None:
        return None
    return Clamp(tensor, bounds.get("low"), bounds.get("high"))


def _pure(node: ast.expr) -> bool:
    """Built of names, attributes, constants and arithmetic: reading it again gives the same."""
    return all(isinstance(n, _PURE) for n in ast.walk(node))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _unchanged_after(
    definition: ast.FunctionDef | ast.AsyncFunctionDef, binding: ast.Assign, clamp: Clamp
) -> bool:
    """Whether the clamped tensor and the names of its bounds keep, after the mask is made, the
    values the mask was made from: not bound again, not written through, no in-place method
    called on them."""
    names: set[str | None] = {clamp.tensor}
    names |= {
        n
        for bound in (clamp.low, clamp.high)
        if bound is not None
        for n in _names(ast.parse(bound))
    }
    after = binding.end_lineno or binding.lineno
    for node in ast.walk(definition):
        if getattr(node, "lineno", 0) <= after:
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in names:
            return False
        stored = isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)
        if stored and dotted(node.value) in names:  # type: ignore[attr-defined]
            return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.endswith("_")
            and dotted(node.func.value) in names
        ):
            return False
    return True


def _shape_source(mask: ast.expr) -> str | None:
    """The tensor a mask is built from alone by comparisons with bounds and `&`, `|`, `~` (it
    then has that tensor's shape), or None."""
    clamp = _clamp(mask)
    return clamp.tensor if clamp is not None else None


def _same_shape(
    definition: ast.FunctionDef | ast.AsyncFunctionDef, name: str, source: str | None
) -> bool:
    """Whether `name` has the shape of `source`: it is `source`, or it is bound once in the
    function, to `torch.zeros_like(source)` (or another maker of a tensor of its argument's
    shape) or `source.clone()`."""
    if source is None:
        return False
    if name == source:
        return True
    values = [
        node.value
        for node in ast.walk(definition)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for bound in ast.walk(target)
        if isinstance(bound, ast.Name) and isinstance(bound.ctx, ast.Store) and bound.id == name
    ]
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return False
    call = values[0]
    function = dotted(call.func)
    if function is None or function.rpartition(".")[2] not in _SAME_SHAPE_MAKERS:
        return False
    if isinstance(call.func, ast.Attribute) and call.func.attr == "clone" and not call.args:
        return dotted(call.func.value) == source  # `source.clone()`
    return bool(call.args) and dotted(call.args[0]) == source


SUBSET = "masked-subset"
SUBSET_MESSAGE = (
    "compute on every element, then keep those `{mask}` selects: "
    "`out.copy_({{torch}}.where({mask}, y, out))`"
)


def masked_subset(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `masked-subset` rewrite of the function: each read through the mask read whole (the
    mask's own range-tested tensor clamped into the range), each write back `out[m] = y` made
    `out.copy_(torch.where(m, y, out))`, as `subset_plan` reads the function's code now."""
    import libcst as cst

    if not isinstance(node, cst.FunctionDef):
        return None
    mask = fix.message.split("`")[1]  # SUBSET_MESSAGE names it first
    try:
        definition = ast.parse(cst.Module([]).code_for_node(node)).body[0]
    except SyntaxError:
        return None
    if not isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    plan = subset_plan(definition, mask)
    return None if plan is None else node.visit(_subset_rewriter(plan, fix.torch))


def _subset_rewriter(plan: SubsetPlan, torch: str) -> cst.CSTTransformer:
    import libcst as cst

    from breaklint.rewrites import call, torch_function

    code = cst.Module([]).code_for_node

    def selects(index: Sequence[cst.SubscriptElement]) -> bool:
        first = index[0].slice
        return (
            isinstance(first, cst.Index)
            and isinstance(first.value, cst.Name)
            and first.value.value == plan.mask
        )

    class SubsetRewriter(cst.CSTTransformer):
        def __init__(self) -> None:
            super().__init__()
            self.writes: set[int] = set()  # the subscripts written through the mask

        def visit_Assign(self, node: cst.Assign) -> None:
            (target,) = node.targets if len(node.targets) == 1 else (None,)
            written = None if target is None else target.target
            if isinstance(written, cst.Subscript) and selects(written.slice):
                self.writes.add(id(written))

        def leave_Subscript(
            self, original_node: cst.Subscript, updated_node: cst.Subscript
        ) -> cst.BaseExpression:
            if id(original_node) in self.writes or not selects(updated_node.slice):
                return updated_node
            whole = updated_node.value
            clamp = plan.clamp
            if clamp is not None and len(updated_node.slice) == 1 and code(whole) == clamp.tensor:
                bounds = [clamp.low or "None", clamp.high or "None"]
                whole = cst.parse_expression(f"{clamp.tensor}.clamp({', '.join(bounds)})")
            if updated_node.lpar:
                whole = whole.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            return whole

        def leave_Assign(
            self, original_node: cst.Assign, updated_node: cst.Assign
        ) -> cst.BaseSmallStatement:
            if len(original_node.targets) != 1:
                return updated_node
            target = original_node.targets[0].target
            if id(target) not in self.writes:
                return updated_node
            assert isinstance(target, cst.Subscript)
            written = code(target.value)
            mask = plan.mask
            if written not in plan.same_shape:
                mask = f"{mask}.reshape({mask}.shape + (1,) * ({written}.dim() - {mask}.dim()))"
            where = call(
                torch_function(torch, "where"),
                cst.parse_expression(mask),
                updated_node.value,
                target.value.deep_clone(),
            )
            copy = cst.Attribute(target.value.deep_clone(), cst.Name("copy_"))
            return cst.Expr(cst.Call(func=copy, args=[cst.Arg(where)]))

    return SubsetRewriter()
