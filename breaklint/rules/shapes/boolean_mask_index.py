from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.rules.shapes._dynamic_shapes import HINT, WHY
from breaklint.syntax import excerpt

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# Reductions of the selected elements that the whole tensor gives as well, once the elements
# left out are replaced by the reduction's neutral value.
NEUTRAL = {"sum": 0, "any": 0, "all": 1}
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


def _where_reduce(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `where-reduce` fix: `x[mask].sum()` becomes `torch.where(mask, x, 0).sum()`."""
    import libcst as cst

    from breaklint.rewrites import call, method, torch_function

    if not isinstance(node, cst.Call):
        return None
    func = node.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Subscript):
        return None
    read = func.value
    (element,) = read.slice
    if not isinstance(element.slice, cst.Index):
        return None
    mask = element.slice.value
    where = torch_function(fix.torch, "where")
    if func.attr.value == MEAN:  # sum of the selected elements / their count
        selected = call(where, mask, read.value.with_changes(lpar=[], rpar=[]), cst.Integer("0"))
        count = method(mask.deep_clone(), "sum")
        mean = cst.BinaryOperation(method(selected, "sum"), cst.Divide(), count)
        return mean.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    neutral = cst.Integer(str(NEUTRAL[func.attr.value]))
    selected = call(where, mask, read.value.with_changes(lpar=[], rpar=[]), neutral)
    return node.with_changes(
        func=func.with_changes(value=selected.with_changes(lpar=read.lpar, rpar=read.rpar))
    )


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
keeps the shape and is not flagged.
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
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"where-reduce": _where_reduce}
    fix_safety = """
Unsafe fix: a masked read reduced at once, `x[mask].sum()`, `.any()` or `.all()` with no
arguments, becomes the same reduction over `torch.where(mask, x, neutral)` (0 for `sum` and
`any`, 1 for `all`), which has a fixed shape. It equals the original only when `mask` has
`x`'s shape: a mask over the leading dimensions broadcasts differently (or fails). A masked
mean, `x[mask].mean()`, becomes `(torch.where(mask, x, 0).sum() / mask.sum())` where the mask
is built of names, attributes and constants (it is read twice): NaN for an empty selection,
as before. A float sum adds in another order, so it can differ in the last bits. Other reads
have no automatic fix.
"""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._reduced: dict[int, ast.Call] = {}  # masked reads reduced at once, by their call

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and (func.attr in NEUTRAL or func.attr == MEAN)
            and isinstance(func.value, ast.Subscript)
            and not isinstance(func.value.slice, ast.Tuple | ast.Slice)
            and not node.args
            and not node.keywords
            and (func.attr != MEAN or all(isinstance(n, _PURE) for n in ast.walk(func.value.slice)))
        ):
            self._reduced[id(func.value)] = node

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # `x[mask] = 0` writes through the mask and keeps the shape; `x[mask] += y` reads first.
        if isinstance(node.ctx, ast.Load) and self._indexes_with_mask(node):
            fix = None
            reduction = self._reduced.get(id(node))
            if reduction is not None:
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
            self.report(target)

    def _indexes_with_mask(self, node: ast.Subscript) -> bool:
        facts = self.context.facts
        if facts.kind(node.value) is Kind.PYTHON:
            return False
        index = node.slice
        elements = index.elts if isinstance(index, ast.Tuple) else [index]
        return any(facts.kind(element) is Kind.MASK for element in elements)
