import ast

from breaklint.findings import Severity
from breaklint.rule import Rule


class ExplicitGraphBreak(Rule):
    code = "BL504"
    name = "explicit-graph-break"
    severity = Severity.WARNING
    message = "`torch._dynamo.graph_break()` splits the graph here on purpose"
    hint = "remove it once the reason for it is gone; keep it only where a split is wanted"
    what = """
Flags `torch._dynamo.graph_break()` in compiled code, so deliberate splits stay visible.
"""
    why = """
The call exists to end the graph (GB0025). It is often left behind after debugging and costs a
second graph and a round trip through Python on every call.
"""
    example = """
import torch


def two_stage(x):
    y = x * 2
    torch._dynamo.graph_break()
    return y + 1


compiled = torch.compile(two_stage)
"""
    use_instead = """
import torch


def two_stage(x):
    y = x * 2
    return y + 1


compiled = torch.compile(two_stage)
"""
    probe = "(two_stage, (torch.randn(8),))"
    gb_ids = ("GB0025",)

    def visit_Call(self, node: ast.Call) -> None:
        if self.context.facts.resolve(node.func) == "torch._dynamo.graph_break":
            self.report(node)
