import ast

from breaklint.findings import Severity
from breaklint.knowledge.curated import RESUMELESS_CONTEXT_MANAGERS
from breaklint.rules.control_flow._frame_skip import BodySkip


class GraphBreakInWith(BodySkip):
    code = "BL207"
    name = "graph-break-in-with"
    severity = Severity.ERROR
    message = (
        "graph break inside a `with` block ({codes}) whose context manager Dynamo cannot "
        "enter again after a break: it skips the whole frame and `{function}` runs eagerly, "
        "with no graph at all"
    )
    hint = "make the break traceable (see {codes}) or move it out of the block"
    fix_safety = """
No automatic fix: moving the statement out of the block would run it outside the context the
code asked for. The break's own rule offers a fix where one exists; once it is fixed, this
finding goes too.
"""
    what = """
Flags the first graph break in the body of each `with` statement of a compiled function that
enters one of the standard-library context managers Dynamo 2.13 cannot resume in:
`warnings.catch_warnings()`, `contextlib.suppress(...)` and `contextlib.ExitStack()`, in
addition to the finding for the break itself. As for BL204, once such a break certainly skips
the frame, the breaks other rules find on later lines become info, and after a break that may
skip it (a warning), the errors on later lines become warnings. As for BL202, a break that is a
warning only because a configuration decides its `if` is certain where that branch is taken.
Breaks in a loop inside the block are BL202's. The grad modes, autocast and
`contextlib.nullcontext()` resume after a break in their block (measured) and are not flagged.
"""
    why = """
After a graph break Dynamo resumes the function in a new frame that starts after the breaking
instruction, and re-enters the context managers around it there. It can rebuild the few it
models (the grad modes, autocast, `nullcontext`); for any other object it entered by tracing
its `__enter__` (`warnings.catch_warnings`, `contextlib.suppress`, `contextlib.ExitStack`) it
has no way to rebuild it ("Reconstruction failure", "Failed to trace builtin operator"): it
gives up on the whole frame, and the function runs fully eagerly (measured with torch 2.13 and
Python 3.11).
"""
    example = """
import warnings

import torch


def scaled(x):
    y = x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scale = y.sum().item()
    return y * scale


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def scaled(x):
    y = x * 2
    scale = y.sum()
    return y * scale


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    gb_ids = ("GB0092",)

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        managers = [item.context_expr for item in node.items]
        if any(
            isinstance(manager, ast.Call)
            and self.context.facts.resolve(manager.func) in RESUMELESS_CONTEXT_MANAGERS
            for manager in managers
        ):
            self.blocks.append(node)

    visit_AsyncWith = visit_With
