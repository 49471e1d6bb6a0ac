import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.rules._dynamic_shapes import HINT, WHY
from breaklint.tensorness import Kind


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

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # `x[mask] = 0` writes through the mask and keeps the shape; `x[mask] += y` reads first.
        if isinstance(node.ctx, ast.Load) and self._indexes_with_mask(node):
            self.report(node)

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
