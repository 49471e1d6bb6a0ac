import ast

from breaklint.findings import Severity
from breaklint.rule import Report, RuleContext
from breaklint.rules.control_flow._frame_skip import FrameSkip
from breaklint.syntax import contains
from breaklint.tensorness import Loop


class GraphBreakInLoop(FrameSkip):
    code = "BL202"
    name = "graph-break-in-loop"
    severity = Severity.ERROR
    message = (
        "graph break inside a loop ({codes}): Dynamo cannot resume in the middle of a loop, so "
        "it skips the whole frame and `{function}` runs eagerly, with no graph at all"
    )
    hint = (
        "move the breaking code out of the loop, or make it traceable (see {codes}); "
        "a helper decorated @torch.compiler.disable keeps the rest of the frame compiled"
    )
    fix_safety = """
No automatic fix: the frame is skipped because of the break inside the loop, and that break's
own rule offers a fix where one exists; once it is fixed, this finding goes too.
"""
    what = """
Flags the first graph break inside each `for` or `while` loop of a compiled function, in
addition to the finding for the break itself. The iterable of the outermost `for` and the
condition of the outermost `while` are not inside it: Python evaluates them before the loop
steps, and Dynamo resumes at the loop head after a break there. Once such a break certainly
skips the frame, the breaks other rules find on later lines of the same function become info:
Dynamo traces none of that code (the functions it calls get frames of their own). After a
break that may skip it (a warning), the errors on later lines become warnings: they break only
where it does not.
A break that is a warning only because a configuration decides its `if` (`if self.flag:`) skips
the frame wherever that branch is taken: what follows it in the same branch becomes info.

A call in the loop of a project function that breaks inside is such a break too: Dynamo
inlines the callee, breaks there, and skips the caller's frame (measured with torch 2.13 and
Python 3.11). Which functions break comes from what the rules find in each of them, across the
project: certainly, where the callee's own code holds an error; maybe, where its breaks are
warnings or lie in the functions it calls. The finding at such a call is info (Dynamo, and the
callee's own finding, name the break's line in the callee); what it restates on later lines is
as above.
"""
    why = """
After a graph break Dynamo resumes the function in a new frame that starts after the breaking
instruction. It cannot do that from inside a loop, so it gives up on the whole frame (GB7000):
the function runs fully eagerly and nothing in it is compiled, which costs far more than one
extra graph.
"""
    example = """
import torch


def accumulate(x):
    total = torch.zeros_like(x)
    for step in range(3):
        print("step", step)
        total = total + x * step
    return total


compiled = torch.compile(accumulate)
"""
    use_instead = """
import torch


def accumulate(x):
    total = torch.zeros_like(x)
    for step in range(3):
        total = total + x * step
    return total


compiled = torch.compile(accumulate)
"""
    probe = "(accumulate, (torch.randn(8),))"
    gb_ids = ("GB7000",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # By id of a report made inside a loop: the outermost loop around it, and whether it is
        # under an `if` on a trace-time value (flag, shape).
        self.in_loop: dict[int, tuple[Loop, bool]] = {}

    def observe(self, report: Report) -> None:
        facts = self.context.facts
        if facts.loops:
            self.in_loop[id(report)] = (facts.loops[0], facts.conditional)

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        where = self.in_loop.get(id(report))
        if where is None or _before_the_loop(where[0], report):
            return None
        return id(where[0]), where[1]


def _before_the_loop(loop: Loop, report: Report) -> bool:
    """A break in the condition of the outermost `while`, or in the iterable of the outermost
    `for` (evaluated once, before the first step), is not inside the loop: Dynamo breaks the
    graph there and resumes at the loop head without skipping the frame."""
    if isinstance(loop, ast.While):
        return contains(loop.test, report.node)
    return isinstance(loop, ast.For | ast.AsyncFor) and contains(loop.iter, report.node)
