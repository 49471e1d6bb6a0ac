import ast

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.rule import Rule, called
from breaklint.rules.shapes._dynamic_shapes import HINT, WHY

FUNCTIONS = frozenset(
    {
        "torch.nonzero", "torch.argwhere", "torch.unique", "torch.unique_consecutive",
        "torch.masked_select", "torch.bincount",
    }
)  # fmt: skip
METHODS = frozenset(
    {"nonzero", "argwhere", "unique", "unique_consecutive", "masked_select", "bincount"}
)


class DynamicShapeOp(Rule):
    code = "BL301"
    name = "dynamic-shape-op"
    words = called(*FUNCTIONS, "torch.where") | METHODS
    severity = Severity.ERROR
    message = (
        "`{op}` returns a tensor whose size depends on the data; Dynamo cannot trace it with "
        "fake tensors and breaks the graph here"
    )
    hint = HINT
    fix_safety = """
No automatic fix: the result's size depends on the data, and every form with a fixed size
(`torch.where(mask, x, 0)`, weighting by the mask) returns another value (padded, weighted)
that the code after it must be rewritten to expect;
`torch._dynamo.config.capture_dynamic_output_shape_ops = True` lets Dynamo trace many of these
ops instead.
"""
    what = """
Flags `torch.nonzero`, `torch.argwhere`, `torch.unique`, `torch.unique_consecutive`,
`torch.masked_select`, `torch.bincount` (and their tensor methods) and the one-argument
`torch.where(cond)`. The three-argument `torch.where(cond, a, b)` keeps the shape and is fine.
"""
    why = WHY
    example = """
import torch


def positive_sum(x):
    y = x * 2
    return y[torch.nonzero(y > 0, as_tuple=True)].sum() + 1


compiled = torch.compile(positive_sum)
"""
    use_instead = """
import torch


def positive_sum(x):
    y = x * 2
    return torch.where(y > 0, y, 0).sum() + 1


compiled = torch.compile(positive_sum)
"""
    probe = "(positive_sum, (torch.randn(8),))"
    gb_ids = ("GB0036",)

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        arguments = len(node.args) + len(node.keywords)
        if name in FUNCTIONS or (name == "torch.where" and arguments == 1):
            self.report(node, self.message.format(op=name))
            return
        call = self.context.facts.tensor_method(node)
        if call is None or (name is not None and name.startswith("torch.")):
            return
        receiver, method = call
        if method in METHODS and self.context.facts.kind(receiver) is not Kind.PYTHON:
            self.report(node, self.message.format(op=f".{method}()"))
