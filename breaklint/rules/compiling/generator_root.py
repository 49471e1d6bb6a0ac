import ast

from breaklint.findings import Severity
from breaklint.rule import Rule


class GeneratorRoot(Rule):
    code = "BL801"
    name = "generator-root"
    words = frozenset({"yield"})
    severity = Severity.ERROR
    breaks_graph = False  # the frame is skipped as a whole; BL202 need not repeat it
    message = (
        "`yield` makes `{function}` a generator: Dynamo skips a compiled generator function "
        "entirely and it runs eagerly"
    )
    hint = "return a tensor (or a tuple of tensors) and iterate outside the compiled code"
    fix_safety = """
No automatic fix: the compiled function is a generator, so its callers iterate it: returning
tensors instead changes its interface for every caller.
"""
    what = """
Flags `yield` and `yield from` directly inside a compile root (a `forward`, a function passed
to `torch.compile`, a hook).
"""
    why = """
Calling a generator function only creates a generator object; the body runs later, one step
at a time, outside the frame Dynamo was asked to compile. Dynamo skips such a frame (0 graphs)
and the code runs fully eagerly.
"""
    example = """
import torch


def halves(x):
    y = x * 2
    yield y[:4]
    yield y[4:]


compiled = torch.compile(halves)
"""
    use_instead = """
import torch


def halves(x):
    y = x * 2
    return y[:4], y[4:]


compiled = torch.compile(halves)
"""
    probe = "(halves, (torch.randn(8),))"

    def visit_Yield(self, node: ast.Yield | ast.YieldFrom) -> None:
        if self.context.root and self.context.facts.in_outer_function:
            self.report(node, self.message.format(function=self.context.function))

    visit_YieldFrom = visit_Yield
