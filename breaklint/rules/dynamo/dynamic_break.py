"""The reserved dynamic family: findings that only running Dynamo on a probe can produce.

These rules have no matcher: the join layer (`breaklint.dynamic.join`) makes their findings
from what the probes (`--probes`) recorded; their modules hold the pages.
"""

from breaklint.findings import Severity
from breaklint.rule import Phase, Rule


class DynamoGraphBreak(Rule):
    code = "BL900"
    phase = Phase.DYNAMIC
    name = "dynamo-graph-break"
    severity = Severity.ERROR
    message = "Dynamo broke the graph here"
    hint = "see Dynamo's explanation and hints; rewrite the statement so it stays in the graph"
    fix_safety = """
No automatic fix: no rule recognises the statement, so nothing says how to rewrite it; Dynamo's
explanation and hints are in the finding.
"""
    what = """
Reports a graph break that Dynamo took while running a probe, at a line no static rule
flagged. The finding carries Dynamo's graph-break id, explanation, hints and the bytecode
around the instruction it could not trace.
"""
    why = """
Dynamo ends the current graph at an instruction it cannot trace, runs that instruction in
Python and starts a new graph after it. Each break costs a graph launch, blocks fusion across
it and splits the FX graph a backend sees.
"""
    example = """
import torch


class Noisy(torch.nn.Module):
    def forward(self, x):
        x = x * 2
        torch._dynamo.graph_break()
        return x + 1
"""
    use_instead = """
import torch


class Quiet(torch.nn.Module):
    def forward(self, x):
        x = x * 2
        return x + 1
"""
    probe = "(Noisy(), (torch.randn(4),))"
    gb_ids = ("GB0025",)


class DynamoFrameSkipped(Rule):
    code = "BL901"
    phase = Phase.DYNAMIC
    name = "dynamo-frame-skipped"
    severity = Severity.ERROR
    message = "Dynamo skipped this whole function: it runs eagerly in full"
    hint = "move the breaking statement out of the loop (or generator) so Dynamo can resume"
    fix_safety = """
No automatic fix: no rule recognises the statement that breaks in the loop, so nothing says how
to rewrite it; Dynamo's explanation is in the finding.
"""
    what = """
Reports a function that Dynamo gave up on entirely: a graph break it cannot resume from (inside
a `for` or `while` loop, a generator, a `try` block) makes it skip the frame, so none of the
function is compiled.
"""
    why = """
Dynamo resumes after a graph break by generating a new function that starts at the next
instruction. It cannot do that in the middle of a loop, so it falls back to running the
whole frame in Python (graph break GB7000).
"""
    example = """
import torch


class Steps(torch.nn.Module):
    def forward(self, x):
        for step in range(3):
            print(step)
            x = x + 1
        return x
"""
    use_instead = """
import torch


class Steps(torch.nn.Module):
    def forward(self, x):
        for step in range(3):
            x = x + 1
        return x
"""
    probe = "(Steps(), (torch.randn(4),))"
    gb_ids = ("GB7000",)


class ProbeFailed(Rule):
    code = "BL902"
    phase = Phase.DYNAMIC
    name = "probe-failed"
    severity = Severity.ERROR
    message = "the probe could not be run to the end"
    hint = "fix the probe (or the model) so that it runs eagerly first"
    fix_safety = """
No automatic fix: the probe failed, so it proved nothing: the probe or the model must be fixed
by hand.
"""
    what = """
Reports a probe that raised, ran past `--probe-timeout` or `--probe-memory`, crashed its worker
process, or is not a valid probe (a `probe_*` function with no parameters returning
`(callable, args)` or `(callable, args, kwargs)`). Lines only this probe reaches are reported as
not reached.
"""
    why = """
breaklint proves graph breaks by running Dynamo on probes. A probe that fails proves nothing,
so it is reported rather than ignored.
"""
    example = """
def probe_broken():
    return Model()
"""
    use_instead = """
def probe_model():
    return Model(), (torch.randn(2, 8),)
"""
