import ast

from breaklint.findings import Severity
from breaklint.rules.control_flow._frame_skip import BodySkip


class GraphBreakInTry(BodySkip):
    code = "BL204"
    name = "graph-break-in-try"
    severity = Severity.ERROR
    message = (
        "graph break inside a `try` block ({codes}): Dynamo cannot resume inside it, so it "
        "skips the whole frame and `{function}` runs eagerly, with no graph at all"
    )
    hint = (
        "move the breaking code out of the `try` block, or make it traceable (see {codes}); "
        "a helper decorated @torch.compiler.disable keeps the rest of the frame compiled"
    )
    fix_safety = """
No automatic fix: the frame is skipped because of the break inside the `try` body, and that
break's own rule offers a fix where one exists; once it is fixed, this finding goes too.
Moving the statement out of the `try` would change which exceptions the handlers catch.
"""
    what = """
Flags the first graph break in the body of each `try` statement of a compiled function, in
addition to the finding for the break itself. Once such a break certainly skips the frame, the
breaks other rules find on later lines of the same function become info: Dynamo traces none of
that code (the functions it calls get frames of their own). After a break that may skip it (a
warning), the errors on later lines become warnings: they break only where it does not (a
break that is a warning only because a configuration decides its `if` is certain where that
branch is taken, as for BL202). Breaks
in the `except`, `else` and `finally` blocks, and breaks inside a loop (BL202 reports those),
are not flagged here. A call in the `try` body of a project function that breaks inside is
such a break too (measured with torch 2.13 and Python 3.11): it is reported as info at the
call, certain or maybe as BL202 says, and restates what follows the same way.
"""
    why = """
After a graph break Dynamo resumes the function in a new frame that starts after the breaking
instruction. With Python 3.11 it cannot do that from inside a `try` block, whose exception
handler would have to be rebuilt around the resumed code: it gives up on the whole frame, and
the function runs fully eagerly (measured with torch 2.13: a break in a `with` block, or in
the `except`, `else` or `finally` block, resumes as usual).
"""
    example = """
import torch


def scaled(x):
    y = x * 2
    try:
        scale = int(y.sum())
    except RuntimeError:
        scale = 1
    return y * scale


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def scaled(x):
    y = x * 2
    scale = y.sum().to(torch.int64)
    return y * scale


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    gb_ids = ("GB0124",)

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        self.blocks.append(node)

    visit_TryStar = visit_Try
