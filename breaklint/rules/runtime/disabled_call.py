import ast

from breaklint.findings import Severity
from breaklint.rule import Outline, Rule
from breaklint.syntax import dotted


class DisabledCall(Rule):
    code = "BL505"
    name = "disabled-call"
    severity = Severity.WARNING
    message = (
        "`{call}` is decorated @torch.compiler.disable: Dynamo does not trace it and breaks "
        "the graph around the call"
    )
    hint = (
        "fine when intended (it keeps the rest compiled); otherwise make the function "
        "traceable and drop the decorator, or move the call outside the compiled code"
    )
    fix_safety = """
No automatic fix: the decorator is a deliberate choice to run the function eagerly; removing it
needs proof that its body traces, which only the author (or a probe) can give.
"""
    what = """
Flags calls, in compiled code, of functions and methods of the linted tree that are decorated
`@torch.compiler.disable` or `@torch._dynamo.disable`.
"""
    why = """
A disabled function always runs eagerly. Dynamo ends the graph before the call and starts a new
one after it, so each call costs an extra graph and a trip through Python.
"""
    example = """
import torch


@torch.compiler.disable
def shift(x):
    return x + 1


def scaled(x):
    return shift(x * 2) * 3


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def shift(x):
    return x + 1


def scaled(x):
    return shift(x * 2) * 3


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.disabled_calls)

    def visit_Call(self, node: ast.Call) -> None:
        name = dotted(node.func)
        if name is not None and name in self.context.disabled_calls:
            self.report(node, self.message.format(call=name))
