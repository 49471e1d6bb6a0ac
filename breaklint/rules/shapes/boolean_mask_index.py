from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Outline, Rule, RuleContext
from breaklint.rules.shapes._dynamic_shapes import HINT, WHY
from breaklint.rules.shapes._masked_subsets import (
    SUBSET,
    SUBSET_MESSAGE,
    masked_subset,
    subset_plan,
)
from breaklint.syntax import dotted, excerpt, iter_nodes

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# Reductions of the selected elements that the whole tensor gives as well, once the elements
# left out are replaced by the reduction's neutral value.
NEUTRAL = {"sum": 0, "any": 0, "all": 1}
# The largest (smallest) selected element: the whole tensor's, once the elements left out are
# replaced by minus (plus) infinity, the sign of `torch.inf` each takes.
EXTREMES = {"max": "-", "amax": "-", "min": "", "amin": ""}
# The mean of the selected elements: their sum over the whole tensor, divided by their count
# (the mask's sum), which reads the mask twice.
MEAN = "mean"
# What a mask read twice may be built of: names, attributes, constants and the operations
# that combine them into a mask, so that reading it again gives the same mask.
_PURE = (
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.Compare,
    ast.UnaryOp,
    ast.BinOp,
    ast.expr_context,
    ast.cmpop,
    ast.unaryop,
    ast.operator,
)

# A masked update `x[mask] op= value` (or `x[mask] = value` where `value` reads through the
# mask) becomes `x.copy_(torch.where(mask, x op value, x))`: the arithmetic it may apply is
# elementwise, so it commutes with selecting by the mask; `@` does not.
_ELEMENTWISE_OPERATORS = (
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Pow,
    ast.BitAnd,
    ast.BitOr,
    ast.BitXor,
    ast.LShift,
    ast.RShift,
)
_SIGNS = (ast.USub, ast.UAdd, ast.Invert)
# Methods a masked update's value may call on its parts: elementwise, so a part read through
# the mask can be read whole instead.
_ELEMENTWISE_METHODS = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "bool", "to", "type_as", "detach"}
    | {"abs", "neg", "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "relu"}
    | {"clamp", "clamp_min", "clamp_max"}
)
# Predicates of a tensor that keep its shape: a mask built only from `x` by these, comparisons
# with numbers and `&`, `|`, `^`, `~` has `x`'s shape.
_SAME_SHAPE_PREDICATES = frozenset(
    {"isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "logical_not", "bool"}
)
# The rewrites of a masked update: a mask of the tensor's own shape is used as it is; any other
# is read again (a name, or names, attributes and constants combined, as `labels == k`), and
# its dimensions are the tensor's leading ones, as indexing aligns them, so it gets the
# tensor's trailing ones as size-1 dimensions for `torch.where`.
UPDATE = "masked-update"
UPDATE_LEADING = "masked-update-leading"
# A list of Python bools read as an index becomes the list of its True positions, which
# selects the same elements and which Dynamo takes as constants (no `nonzero`).
POSITIONS = "true-positions"


def _masked_update(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The masked-update fixes: `x[mask] += y[mask]` becomes
    `x.copy_(torch.where(mask, x + y, x))`, in place, so views of `x` see the update."""
    import libcst as cst

    from breaklint.rewrites import call, torch_function

    if isinstance(node, cst.AugAssign):
        target, value = node.target, node.value
    elif isinstance(node, cst.Assign) and len(node.targets) == 1:
        target, value = node.targets[0].target, node.value
    else:
        return None
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return None
    index = target.slice[0].slice
    if not isinstance(index, cst.Index):
        return None
    tensor, mask = target.value, index.value
    value = _read_whole(value, mask)
    if isinstance(node, cst.AugAssign):
        operator = getattr(cst, type(node.operator).__name__.removesuffix("Assign"))()
        value = cst.BinaryOperation(tensor, operator, _grouped(value))
    if fix.rewrite == UPDATE_LEADING:
        code = cst.Module([]).code_for_node
        mask_code, tensor_code = code(_grouped(mask)), code(tensor)
        mask = cst.parse_expression(
            f"{mask_code}.reshape({mask_code}.shape + (1,) * ({tensor_code}.dim() - "
            f"{mask_code}.dim()))"
        )
    where = call(torch_function(fix.torch, "where"), mask, value, tensor.deep_clone())
    return cst.Expr(
        cst.Call(func=cst.Attribute(tensor.deep_clone(), cst.Name("copy_")), args=[cst.Arg(where)])
    )


def _true_positions(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `true-positions` fix: `x[..., flags, 0]` with `flags` a list of Python bools
    becomes `x[..., [i for i, taken in enumerate(flags) if taken], 0]`."""
    import libcst as cst

    if not isinstance(node, cst.Name | cst.List | cst.ListComp):
        return None
    flags = cst.Module([]).code_for_node(node.with_changes(lpar=[], rpar=[]))
    positions = cst.parse_expression(f"[i for i, taken in enumerate({flags}) if taken]")
    return positions.with_changes(lpar=node.lpar, rpar=node.rpar)


def _read_whole(value: cst.BaseExpression, mask: cst.BaseExpression) -> cst.BaseExpression:
    """`value` with each read through the mask (the only subscripts the rule let in) made a
    read of the whole tensor: `y[mask] * 2` -> `y * 2`. A new axis right after the masked
    dimensions, `y[mask, None]` or `y[mask][:, None]`, is put after the mask's dimensions of
    the whole tensor: `y.unsqueeze(mask.dim())`; `y[mask][..., None]` keeps its `[..., None]`."""
    import libcst as cst

    from breaklint.rewrites import call, method, parenthesized

    class WholeReads(cst.CSTTransformer):
        def leave_Subscript(
            self, original_node: cst.Subscript, updated_node: cst.Subscript
        ) -> cst.BaseExpression:
            whole = updated_node.value
            elements = updated_node.slice
            first = elements[0].slice
            if isinstance(first, cst.Index) and isinstance(first.value, cst.Ellipsis):
                return updated_node  # `[..., None]` after a masked read: as it is
            for _ in elements[1:]:  # each a `None`, as the rule checked
                dims = method(mask.deep_clone(), "dim")
                whole = call(cst.Attribute(parenthesized(whole), cst.Name("unsqueeze")), dims)
            if updated_node.lpar:
                whole = whole.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            return whole

    return value.visit(WholeReads())  # type: ignore[return-value]


def _grouped(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` parenthesised, unless it is an atom or already in parentheses, as the right
    operand of an operator."""
    import libcst as cst

    atoms = cst.Name | cst.Attribute | cst.Call | cst.Subscript | cst.Integer | cst.Float
    if isinstance(value, atoms) or value.lpar:
        return value
    return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _where_reduce(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-reduce` fix: `x[mask].sum()` becomes `torch.where(mask, x, 0).sum()`."""
    import libcst as cst

    from breaklint.rewrites import call, method, torch_function

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    func = node.func
    # `x[mask].sum()`, or `torch.sum(x[mask])`: the read is the method's value or the argument
    argument = node.args[0].value if len(node.args) == 1 else None
    read = func.value if not node.args else argument
    if not isinstance(read, cst.Subscript):
        return None
    (element,) = read.slice
    if not isinstance(element.slice, cst.Index):
        return None
    mask = element.slice.value
    where = torch_function(fix.torch, "where")
    reduction = func.attr.value
    if reduction == MEAN:  # sum of the selected elements / their count
        selected = call(where, mask, read.value.with_changes(lpar=[], rpar=[]), cst.Integer("0"))
        count = method(mask.deep_clone(), "sum")
        mean = cst.BinaryOperation(method(selected, "sum"), cst.Divide(), count)
        return mean.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    neutral: cst.BaseExpression = cst.Integer(str(NEUTRAL.get(reduction, 0)))
    if reduction in EXTREMES:
        infinity = torch_function(fix.torch, "inf")
        neutral = cst.UnaryOperation(cst.Minus(), infinity) if EXTREMES[reduction] else infinity
    selected = call(where, mask, read.value.with_changes(lpar=[], rpar=[]), neutral)
    if node.args:
        return node.with_changes(args=[node.args[0].with_changes(value=selected)])
    return node.with_changes(
        func=func.with_changes(value=selected.with_changes(lpar=read.lpar, rpar=read.rpar))
    )


_WRAPPED = """
import torch


def wrap_ends(x, ends):
    x = x.clone()
    wrapped = [end == "circular" for end in ends]  # per channel
    x[..., wrapped, -1] = x[..., wrapped, 0]
    return x


compiled = torch.compile(wrap_ends)
"""


_SUBSET = """
import torch


def squash_inside(x, scale):
    inside = (x >= -1.0) & (x <= 1.0)
    out = x.clone()
    # asin is defined on [-1, 1] only
    angle = torch.asin(x[inside]) * scale[inside]
    out[inside] = angle
    return out


compiled = torch.compile(squash_inside)
"""


class BooleanMaskIndex(Rule):
    code = "BL302"
    name = "boolean-mask-index"
    severity = Severity.ERROR
    message = (
        "indexing with a boolean mask (`x[x > 0]`) gives a result whose size depends on the "
        "data; Dynamo breaks the graph here"
    )
    hint = HINT
    what = """
Flags reading `x[mask]` where the index is a boolean tensor: a comparison of tensors, a
`.bool()`/`isnan`-style result, a combination of those with `&`, `|`, `~`, or a name bound to
one, and `x[mask] += y`, which reads `x[mask]` first. Writing through a mask (`x[mask] = 0`)
keeps the shape and is not flagged (Dynamo 2.13 compiles it, a number or a 0-d tensor alike);
`x[mask] = y[mask]` is flagged for its read of `y[mask]`. A list of Python bools read as an
index of a tensor (`x[..., circular, 0]` with `circular = [t == "circular" for t in tails]`, a
comprehension of comparisons or a literal of `True`/`False`) is a mask too: torch makes it a
boolean tensor and selects with it. A name indexed with a comparison of itself (`row[row !=
pad]`, `row` an element of an input nothing annotates) is a warning: a list or a number
compared gives one bool, which no list is indexed with, so it holds an array, and Dynamo
traces a numpy array as a tensor too.
"""
    why = WHY
    example = """
import torch


def positive_mean(x):
    y = x * 2
    return y[y > 0].mean() + 1


compiled = torch.compile(positive_mean)
"""
    use_instead = """
import torch


def positive_mean(x):
    y = x * 2
    keep = y > 0
    return (y * keep).sum() / keep.sum() + 1


compiled = torch.compile(positive_mean)
"""
    probe = "(positive_mean, (torch.randn(8),))"
    gb_ids = ("GB0036",)
    fix_examples = (
        FixExample(
            before="""
import torch


def stable_weights(log_weights):
    bad = torch.isinf(log_weights) | torch.isnan(log_weights)
    return torch.exp(log_weights - torch.max(log_weights[~bad]))


compiled = torch.compile(stable_weights)
""",
            after="""
import torch


def stable_weights(log_weights):
    bad = torch.isinf(log_weights) | torch.isnan(log_weights)
    return torch.exp(log_weights - torch.max(torch.where(~bad, log_weights, -torch.inf)))


compiled = torch.compile(stable_weights)
""",
            probe="(stable_weights, (torch.tensor([0.5, -float('inf'), 2.0, float('inf')]),))",
        ),
        FixExample(
            before="""
import torch


def positive_total(x):
    y = x * 2
    keep = y > 0
    # reduce what passes
    return y[keep].sum() + (y[y < -1]).any()


compiled = torch.compile(positive_total)
""",
            after="""
import torch


def positive_total(x):
    y = x * 2
    keep = y > 0
    # reduce what passes
    return torch.where(keep, y, 0).sum() + (torch.where(y < -1, y, 0)).any()


compiled = torch.compile(positive_total)
""",
            probe="(positive_total, (torch.randn(64),))",
            tolerance=1e-5,
        ),
        FixExample(
            before="""
import torch


def masked_loss(x, target):
    loss = (x - target).pow(2)
    keep = target > 0
    return loss[keep].mean() + 1


compiled = torch.compile(masked_loss)
""",
            after="""
import torch


def masked_loss(x, target):
    loss = (x - target).pow(2)
    keep = target > 0
    return (torch.where(keep, loss, 0).sum() / keep.sum()) + 1


compiled = torch.compile(masked_loss)
""",
            probe="(masked_loss, (torch.randn(4, 16), torch.randn(4, 16)))",
            tolerance=1e-5,
        ),
        FixExample(
            before="""
import torch


def add_where_kept(x, scores, bonus):
    x = x * 2
    keep = scores > 0  # over the leading dimensions
    x[keep] += bonus[keep]
    return x


compiled = torch.compile(add_where_kept)
""",
            after="""
import torch


def add_where_kept(x, scores, bonus):
    x = x * 2
    keep = scores > 0  # over the leading dimensions
    x.copy_(torch.where(keep.reshape(keep.shape + (1,) * (x.dim() - keep.dim())), x + bonus, x))
    return x


compiled = torch.compile(add_where_kept)
""",
            probe=(
                "(add_where_kept, (torch.randn(2, 3, 4), torch.randn(2, 3), torch.randn(2, 3, 4)))"
            ),
        ),
        FixExample(
            before="""
import torch


def add_per_class(x, labels, bonus):
    x = x * 2
    x[labels == 1] += bonus  # the rows of class 1
    return x


compiled = torch.compile(add_per_class)
""",
            after="""
import torch


def add_per_class(x, labels, bonus):
    x = x * 2
    x.copy_(torch.where((labels == 1).reshape((labels == 1).shape + (1,) * (x.dim() - (labels == 1).dim())), x + bonus, x))  # the rows of class 1
    return x


compiled = torch.compile(add_per_class)
""",  # noqa: E501
            probe=(
                "(add_per_class, (torch.randn(4, 3), torch.tensor([0, 1, 1, 2]), torch.randn(3)))"
            ),
        ),
        FixExample(
            before="""
import torch


def damp_negatives(x):
    x = x + 1
    x[x < 0] *= 0.0
    return x


compiled = torch.compile(damp_negatives)
""",
            after="""
import torch


def damp_negatives(x):
    x = x + 1
    x.copy_(torch.where(x < 0, x * 0.0, x))
    return x


compiled = torch.compile(damp_negatives)
""",
            probe="(damp_negatives, (torch.randn(4, 8),))",
        ),
        FixExample(
            before=_WRAPPED,
            after=_WRAPPED.replace(
                "x[..., wrapped, 0]", "x[..., [i for i, taken in enumerate(wrapped) if taken], 0]"
            ),
            probe='(wrap_ends, (torch.randn(2, 3, 5), ["linear", "circular", "circular"]))',
        ),
        FixExample(
            before="""
import torch


def fill_gaps(x, y):
    x = x / y
    x[x.isnan()] = y[x.isnan()] * 2
    return x


compiled = torch.compile(fill_gaps)
""",
            after="""
import torch


def fill_gaps(x, y):
    x = x / y
    x.copy_(torch.where(x.isnan(), y * 2, x))
    return x


compiled = torch.compile(fill_gaps)
""",
            probe="(fill_gaps, (torch.tensor([0.0, 1.0, 0.0]), torch.tensor([0.0, 2.0, 4.0])))",
        ),
        FixExample(
            before="""
import torch


def mix_rows(x, lam):
    x = x * 2
    keep = lam > 0.5  # one per row
    other = x.flip(0)
    x[keep] = lam[keep, None] * x[keep] + (1 - lam[keep][:, None]) * other[keep]
    return x


compiled = torch.compile(mix_rows)
""",
            after="""
import torch


def mix_rows(x, lam):
    x = x * 2
    keep = lam > 0.5  # one per row
    other = x.flip(0)
    x.copy_(torch.where(keep.reshape(keep.shape + (1,) * (x.dim() - keep.dim())), lam.unsqueeze(keep.dim()) * x + (1 - lam.unsqueeze(keep.dim())) * other, x))
    return x


compiled = torch.compile(mix_rows)
""",  # noqa: E501
            probe="(mix_rows, (torch.randn(6, 3), torch.rand(6)))",
        ),
        FixExample(
            before=_SUBSET,
            after=_SUBSET.replace("torch.asin(x[inside])", "torch.asin(x.clamp(-1.0, 1.0))")
            .replace("scale[inside]", "scale")
            .replace("out[inside] = angle", "out.copy_(torch.where(inside, angle, out))"),
            probe="(squash_inside, (torch.randn(8, 16) * 2, torch.rand(8, 16)))",
            tolerance=1e-6,
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "where-reduce": _where_reduce,
        UPDATE: _masked_update,
        UPDATE_LEADING: _masked_update,
        POSITIONS: _true_positions,
        SUBSET: masked_subset,
    }
    fix_safety = """
Unsafe fix: a masked read reduced at once, `x[mask].sum()`, `.any()` or `.all()` with no
arguments, becomes the same reduction over `torch.where(mask, x, neutral)` (0 for `sum` and
`any`, 1 for `all`), which has a fixed shape. It equals the original only when `mask` has
`x`'s shape: a mask over the leading dimensions broadcasts differently (or fails). A masked
mean, `x[mask].mean()`, becomes `(torch.where(mask, x, 0).sum() / mask.sum())` where the mask
is built of names, attributes and constants (it is read twice): NaN for an empty selection,
as before. A float sum adds in another order, so it can differ in the last bits. The
largest or smallest selected element, `x[mask].max()`, `.amax()`, `.min()`, `.amin()`,
becomes the same reduction over `torch.where(mask, x, -torch.inf)` (`torch.inf` for the
smallest): elements left out, NaN ones too, cannot win. An empty selection, where the
original raised, now gives minus (plus) infinity, and an integer `x` gives a float result.
The torch functions given the masked read alone, `torch.sum(x[mask])`, `torch.max(...)`,
`torch.mean(...)` and the others named, get the same fix.

A masked update, `x[mask] op= value` (`+=`, `*=`, any elementwise operator) or
`x[mask] = value` where `value` reads through the same mask, becomes
`x.copy_(torch.where(mask, x op value', x))`, `value'` being `value` with each `y[mask]` read
whole (`y`); a read with new axes right after the masked dimensions, `y[mask, None]` or
`y[mask][:, None]` (a per-row weight broadcast over the rest), is read whole with them after
the mask's dimensions, `y.unsqueeze(mask.dim())`, and `y[mask][..., None]` as `y[..., None]`
(offered only where the mask is not built from `x` alone: it is over `x`'s leading
dimensions). Offered when `x` is a name or attribute and `value` is built of numbers, names,
reads through the same mask, elementwise operators and elementwise methods (`.float()`,
`.to(...)`, `.exp()`, `.clamp(...)`, ...), never of a name bound to a read through a mask. It
is in place, as the original is: views of `x` see the update, and `x` keeps its dtype
(`copy_` casts as the indexed write did). Where the mask is built from `x` alone (`x > 0`,
`x.isnan()`) it has `x`'s shape and is used as it is; any other mask built of names,
attributes and constants (`keep`, `labels == k`, read again) is aligned to `x`'s leading
dimensions, as indexing aligns it:
`mask.reshape(mask.shape + (1,) * (x.dim() - mask.dim()))`. Unsafe: the operation runs on
every element, not only the selected ones (an integer division by zero outside the mask now
raises), a `value` that is a tensor of the selection's length (not the whole tensor's) no
longer broadcasts, and an operation the in-place update would refuse (an integer tensor
`+= 0.5`) is made and cast. Measured on Dynamo 2.13 with `capture_dynamic_output_shape_ops`
off: `x[mask] += 1`, `x[mask] *= 0.0` and `x[mask] = y[mask]` break the graph (GB0036,
`aten.nonzero`), `x[mask] += y[mask]` twice; `x[mask] = 0.0` does not; the rewritten update
compiles to one graph, on a local tensor, a view of one and a module's buffer.

A computation on the subset a mask selects (`masked-subset`): a mask bound once to a name,
reads through it (`x[m]`, `w[m, :]`), names computed from them (`y = f(x[m], w[m, :])`) and
writes back through it (`out[m] = y`). The whole function is rewritten at once: each read is
read whole (`x`, `w`), so everything is computed on every element, and each write back becomes
`out.copy_(torch.where(m, y, out))` (the mask aligned to `out`'s leading dimensions unless `out`
is the mask's tensor or a `zeros_like`/`clone` of it): the masked elements get the values they
got before, and no size depends on the data. Where the mask is a closed range test of one
tensor (`(x >= lo) & (x <= hi)`, `lo` and `hi` names, attributes or numbers not bound again),
that tensor's read becomes `x.clamp(lo, hi)`: equal where the mask holds, and inside the range
elsewhere, so the elements computed and then discarded stay in the computation's domain.
Offered only where every read through the mask and every name computed from one is used to
compute further names, in such a write back, or for its `dtype`/`device`; never returned,
stored elsewhere, iterated over, captured by a lambda or comprehension, used as an index
(a discarded element's value may be out of range), read across its elements (`.sum()`,
`.shape`, `len()`, an index along the selected dimension) or written through the mask in place
(`out[m] += y`), and never changed in place (`x[m].mul_(2)`, `y += 1`: a read through a mask
is a copy, read whole it is the tensor itself). Unsafe: a function called on the reads is assumed
to compute each element on its own (a reduction inside it now sees every element); the
discarded elements are computed, so an operation that raises on them (an index out of range
where no clamp applies) now raises; and where their values are infinite or NaN, gradients
through `torch.where` are NaN (the discarded branch's zero gradient times an infinite
derivative), which the clamp avoids only for the range-tested tensor. Measured on Dynamo 2.13:
the page's example compiles to one graph with the eager outputs of the original.

A list of Python bools read as an index (`x[..., flags, 0]`, `flags` a comprehension of
comparisons bound in the function, or a literal) becomes the list of its True positions,
`[i for i, taken in enumerate(flags) if taken]`: torch selects the same elements with it, in
the same order, and Dynamo takes the positions as constants of the graph instead of calling
`nonzero` (measured: one graph; an all-False list gives the empty selection either way). A
list whose length is not the dimension's size raised before and now selects the positions
that exist. Other reads have no automatic fix.
"""

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return "[" in outline.code  # it reports subscripts only

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._reduced: dict[int, ast.Call] = {}  # masked reads reduced at once, by their call
        self._updates: dict[int, Fix] = {}  # masked reads in a masked update's value: its fix
        self._bool_lists: set[str] = set()  # names bound to a list of Python bools, here
        # Names bound to a value read through a mask: their first dimension is the count the
        # mask selects, which the whole tensor does not have.
        self._selected: set[str] = set()
        self._subsets: dict[str, Fix | None] = {}  # the `masked-subset` fix, by mask name

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or node.keywords:
            return
        reduction = func.attr
        if reduction not in NEUTRAL and reduction not in EXTREMES and reduction != MEAN:
            return
        read: ast.expr | None = None
        if not node.args:  # `x[mask].sum()`
            read = func.value
        elif len(node.args) == 1 and self.context.facts.resolve(func) == f"torch.{reduction}":
            read = node.args[0]  # `torch.sum(x[mask])`
        if (
            isinstance(read, ast.Subscript)
            and not isinstance(read.slice, ast.Tuple | ast.Slice)
            and (reduction != MEAN or all(isinstance(n, _PURE) for n in ast.walk(read.slice)))
        ):
            self._reduced[id(read)] = node

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # `x[mask] = 0` writes through the mask and keeps the shape; `x[mask] += y` reads first.
        if isinstance(node.ctx, ast.Load) and self._indexes_with_own_test(node):
            # Not known to be a tensor, but only an array is indexed with a test of itself.
            self.report(node, hint=self._hint(node), severity=Severity.WARNING)
        elif isinstance(node.ctx, ast.Load) and self._indexes_with_mask(node):
            fix = self._updates.get(id(node)) or self._subset_fix(node)
            reduction = self._reduced.get(id(node))
            if fix is None and reduction is not None:
                message = (
                    "sum `{torch}.where(mask, x, 0)` and divide by the mask's count"
                    if reduction.func.attr == MEAN  # type: ignore[attr-defined]
                    else "reduce over `{torch}.where(mask, x, neutral)`"
                )
                fix = offer(
                    self.context,
                    reduction,
                    message,
                    "where-reduce",
                    self.fix_applicability,
                    needs_torch=True,
                )
            self.report(node, fix=fix, hint=None if fix else self._hint(node))
        elif isinstance(node.ctx, ast.Load) and self._indexes_with_bool_list(node):
            self._report_bool_list(node)

    def _subset_fix(self, node: ast.Subscript) -> Fix | None:
        """The `masked-subset` fix of the function, for a read through a mask that is a name
        (`x[m]`, `w[m, :]`) where the function has that form (see `subset_plan`)."""
        index = node.slice
        first = index.elts[0] if isinstance(index, ast.Tuple) else index
        if not isinstance(first, ast.Name):
            return None
        mask = first.id
        if mask not in self._subsets:
            definition = self.context.definition
            self._subsets[mask] = None
            if subset_plan(definition, mask) is not None:
                self._subsets[mask] = offer(
                    self.context,
                    definition,
                    SUBSET_MESSAGE.format(mask=mask),
                    SUBSET,
                    self.fix_applicability,
                    needs_torch=True,
                )
        return self._subsets[mask]

    def _report_bool_list(self, node: ast.Subscript) -> None:
        """A list of Python bools as an index is a mask too (made a tensor, then `nonzero`);
        read, one such list is fixed to the positions of its Trues."""
        guessed = self.context.facts.rests_on_guess(node.value)
        index = node.slice
        lists = [
            element
            for element in (index.elts if isinstance(index, ast.Tuple) else [index])
            if self._is_bool_list_element(element)
        ]
        fix = None
        if isinstance(node.ctx, ast.Load) and len(lists) == 1:
            message = "index with the positions of its Trues: `[i for i, taken in ... if taken]`"
            fix = offer(self.context, lists[0], message, POSITIONS, self.fix_applicability)
        self.report(
            node,
            fix=fix,
            hint=None if fix else self._hint(node),
            severity=Severity.WARNING if guessed else None,
        )

    def _hint(self, node: ast.Subscript) -> str:
        tensor, mask = excerpt(node.value, 24), excerpt(node.slice, 32)
        return (
            f"keep a fixed shape: compute on `torch.where({mask}, {tensor}, 0)` (or weight "
            f"`{tensor}` by the mask) instead of `{tensor}[{mask}]`, or set "
            "torch._dynamo.config.capture_dynamic_output_shape_ops = True"
        )

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Subscript) and self._indexes_with_mask(target):
            fix = self._update_fix(node, target)
            self.report(target, fix=fix, hint=None if fix else self._hint(target))
        elif isinstance(target, ast.Subscript) and self._indexes_with_bool_list(target):
            self._report_bool_list(target)

    def visit_Assign(self, node: ast.Assign) -> None:
        (target, *others) = node.targets
        if not others and isinstance(target, ast.Subscript) and self._indexes_with_mask(target):
            self._update_fix(node, target)  # its reads through the mask are reported
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if not names:
            return  # read only for the names it binds: `a, b = ...` binds none of them here
        value = node.value
        lines = self.context.source.lines[value.lineno - 1 : value.end_lineno]
        # No subscript is written without a `[`: most values are not walked.
        selects = any("[" in line for line in lines) and any(
            isinstance(read, ast.Subscript) and self._indexes_with_mask(read)
            for read in iter_nodes(value)
        )
        for name in names:
            (self._selected.add if selects else self._selected.discard)(name)
            (self._bool_lists.add if _is_bool_list(value) else self._bool_lists.discard)(name)

    def _update_fix(
        self, statement: ast.AugAssign | ast.Assign, target: ast.Subscript
    ) -> Fix | None:
        """The fix of a masked update, `x[mask] op= value` or `x[mask] = value` reading
        through the same mask, registered for each read through the mask in `value`: None
        unless `x` is a name (read again), `value` is elementwise in what it reads through the
        mask, and the mask has `x`'s shape or is a name."""
        tensor, mask = dotted(target.value), target.slice
        if tensor is None or isinstance(mask, ast.Tuple | ast.Slice):
            return None
        if isinstance(statement, ast.AugAssign) and not isinstance(
            statement.op, _ELEMENTWISE_OPERATORS
        ):
            return None  # `x[mask] @= w`
        reads = self._masked_reads(statement.value, ast.dump(mask))
        if reads is None or (isinstance(statement, ast.Assign) and not reads):
            return None
        # A new axis after the masked dimensions (`w[mask, None]`): the mask is over `x`'s
        # leading dimensions, not all of them.
        axes = any(isinstance(n, ast.Constant) and n.value is None for n in ast.walk(statement))
        if _built_from(mask, tensor) and not axes:
            rewrite = UPDATE
        elif axes and _built_from(mask, tensor):
            return None
        elif all(isinstance(node, _PURE) for node in ast.walk(mask)):
            rewrite = UPDATE_LEADING  # the mask is read three times: it must read the same
        else:
            return None
        message = "update in place through `{torch}.where(mask, ...)`: `x.copy_(...)`"
        fix = offer(
            self.context, statement, message, rewrite, self.fix_applicability, needs_torch=True
        )
        if fix is not None:
            self._updates.update((id(read), fix) for read in reads)
        return fix

    def _masked_reads(self, value: ast.expr, mask: str) -> list[ast.Subscript] | None:
        """The reads through the mask (`ast.dump`ed as `mask`) in a masked update's value, or
        None when the value is not elementwise in them: only numbers, names not bound to a
        selection, such reads, elementwise operators and methods."""
        if isinstance(value, ast.Constant):
            return []
        if isinstance(value, ast.Name | ast.Attribute):
            chain = dotted(value)
            return [] if chain is not None and chain not in self._selected else None
        if isinstance(value, ast.Subscript):
            return _masked_read(value, mask)
        parts: list[ast.expr]
        if isinstance(value, ast.BinOp) and isinstance(value.op, _ELEMENTWISE_OPERATORS):
            parts = [value.left, value.right]
        elif isinstance(value, ast.UnaryOp) and isinstance(value.op, _SIGNS):
            parts = [value.operand]
        elif (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in _ELEMENTWISE_METHODS
        ):
            parts = [value.func.value, *value.args, *(k.value for k in value.keywords)]
        else:
            return None
        reads: list[ast.Subscript] = []
        for part in parts:
            found = self._masked_reads(part, mask)
            if found is None:
                return None
            reads += found
        return reads

    def _indexes_with_bool_list(self, node: ast.Subscript) -> bool:
        """Whether a tensor is indexed with a list of Python bools (`[t == "circular" for t
        in tails]`), a name bound to one in this function, or a literal."""
        if not self.context.facts.kind(node.value).is_tensor:
            return False
        index = node.slice
        return any(
            self._is_bool_list_element(element)
            for element in (index.elts if isinstance(index, ast.Tuple) else [index])
        )

    def _is_bool_list_element(self, element: ast.expr) -> bool:
        return _is_bool_list(element) or (
            isinstance(element, ast.Name) and element.id in self._bool_lists
        )

    def _indexes_with_own_test(self, node: ast.Subscript) -> bool:
        """`y[y != pad]` where nothing tells what `y` holds (an element of an unannotated
        input): a comparison of a list or a number is one bool, which no list is indexed
        with, so `y` is an array, which Dynamo traces as a tensor either way."""
        subject, index = node.value, node.slice
        facts = self.context.facts
        return (
            isinstance(subject, ast.Name)
            and isinstance(index, ast.Compare)
            and facts.kind(subject) is Kind.UNKNOWN
            and facts.kind(index) is not Kind.MASK
            and dotted(index.left) == subject.id
            and all(_is_bound(part) for part in index.comparators)
        )

    def _indexes_with_mask(self, node: ast.Subscript) -> bool:
        facts = self.context.facts
        if facts.kind(node.value) is Kind.PYTHON:
            return False
        index = node.slice
        elements = index.elts if isinstance(index, ast.Tuple) else [index]
        return any(facts.kind(element) is Kind.MASK for element in elements)


def _masked_read(value: ast.Subscript, mask: str) -> list[ast.Subscript] | None:
    """`[value]` where `value` reads a name or attribute through the mask (`ast.dump`ed as
    `mask`): `y[mask]`; or that read with new axes right after the masked dimensions,
    `y[mask, None]`, `y[mask][:, None]`, or last, `y[mask][..., None]`. None otherwise."""
    index = value.slice
    if dotted(value.value) is not None and ast.dump(index) == mask:
        return [value]
    if not isinstance(index, ast.Tuple) or len(index.elts) < 2:
        return None
    first, *axes = index.elts
    if not all(isinstance(axis, ast.Constant) and axis.value is None for axis in axes):
        return None
    if dotted(value.value) is not None and ast.dump(first) == mask:
        return [value]  # `y[mask, None]`
    after = isinstance(first, ast.Constant) and first.value is Ellipsis
    after = after or (
        isinstance(first, ast.Slice) and first.lower is first.upper is first.step is None
    )
    inner = value.value
    if not after or not isinstance(inner, ast.Subscript) or dotted(inner.value) is None:
        return None
    return [inner] if ast.dump(inner.slice) == mask else None  # the read reported: `y[mask]`


def _is_bool_list(value: ast.expr) -> bool:
    """A list of Python bools: a literal of `True`/`False`, or a comprehension of comparisons
    or negations."""
    if isinstance(value, ast.List):
        return bool(value.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, bool) for e in value.elts
        )
    if isinstance(value, ast.ListComp):
        element = value.elt
        return isinstance(element, ast.Compare) or (
            isinstance(element, ast.UnaryOp) and isinstance(element.op, ast.Not)
        )
    return False


def _is_bound(value: ast.expr) -> bool:
    """A number (`0`, `-1`) or a name or attribute (`IGNORE_ID`, `self.pad`) compared with."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub | ast.UAdd):
        value = value.operand
    return isinstance(value, ast.Name | ast.Attribute) or (
        isinstance(value, ast.Constant) and isinstance(value.value, int | float)
    )


def _built_from(mask: ast.expr, tensor: str) -> bool:
    """Whether `mask` is built from the tensor `tensor` alone (and numbers) by comparisons,
    `&`, `|`, `^`, `~` and shape-keeping predicates, so it has the tensor's shape."""
    if isinstance(mask, ast.Constant):
        return True
    if isinstance(mask, ast.Name | ast.Attribute):
        return dotted(mask) == tensor
    if isinstance(mask, ast.Compare):
        return all(_built_from(part, tensor) for part in [mask.left, *mask.comparators])
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, ast.BitAnd | ast.BitOr | ast.BitXor):
        return _built_from(mask.left, tensor) and _built_from(mask.right, tensor)
    if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert):
        return _built_from(mask.operand, tensor)
    return (
        isinstance(mask, ast.Call)
        and isinstance(mask.func, ast.Attribute)
        and mask.func.attr in _SAME_SHAPE_PREDICATES
        and not mask.args
        and not mask.keywords
        and _built_from(mask.func.value, tensor)
    )
