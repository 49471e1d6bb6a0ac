import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import removal_fix
from breaklint.rule import FixExample, Rule, called


class ExplicitGraphBreak(Rule):
    code = "BL504"
    name = "explicit-graph-break"
    words = called("torch._dynamo.graph_break")
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
    fix_examples = (
        FixExample(example, use_instead, probe),
        FixExample(
            before="""
import torch


def gated(x, training=True):
    y = x.relu()
    if training:
        torch._dynamo.graph_break()  # split here while debugging
    return y * 3


compiled = torch.compile(gated)
""",
            after="""
import torch


def gated(x, training=True):
    y = x.relu()
    if training:
        pass
    return y * 3


compiled = torch.compile(gated)
""",
            probe="(gated, (torch.randn(8),))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    fix_safety = """
Unsafe fix: the statement is removed. Eager runs do exactly what they did (the call does
nothing outside Dynamo), but the split was put there on purpose, so compiled code now joins
the two graphs, which the author may not want. Offered when the call is alone on its lines; a
block left empty gets `pass`.
"""

    def visit_Call(self, node: ast.Call) -> None:
        if self.context.facts.resolve(node.func) == "torch._dynamo.graph_break":
            self.report(
                node,
                fix=removal_fix(
                    self.context, node, "remove the explicit break", self.fix_applicability
                ),
            )
