import ast
from dataclasses import replace

from breaklint.findings import Severity
from breaklint.rule import Report, Rule, RuleContext, all_rules
from breaklint.syntax import contains
from breaklint.tensorness import Loop


class GraphBreakInLoop(Rule):
    code = "BL202"
    name = "graph-break-in-loop"
    severity = Severity.ERROR
    breaks_graph = False  # it restates breaks that other rules report
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
addition to the finding for the break itself. Once such a break certainly skips the frame, the
breaks other rules find on later lines of the same function become info: Dynamo traces none of
that code (the functions it calls get frames of their own).
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
        self.skipped_from: Report | None = None  # the first break that certainly skips

    def observe(self, report: Report) -> None:
        facts = self.context.facts
        if facts.loops:
            self.in_loop[id(report)] = (facts.loops[0], facts.conditional)

    def finish(self, reports: list[Report]) -> None:
        first_in_loop: dict[int, list[Report]] = {}
        for report in reports:
            where = self.in_loop.get(id(report))
            if (
                where is not None
                and all_rules()[report.code].breaks_graph
                and not _in_while_test(where[0], report)
            ):
                first_in_loop.setdefault(id(where[0]), []).append(report)
        for inside in first_in_loop.values():
            codes = ", ".join(sorted({r.code for r in inside}))
            message = self.message.format(codes=codes, function=self.context.function)
            # Under `if self.training:` or a config flag, only that configuration is affected.
            conditional = all(self.in_loop[id(r)][1] for r in inside)
            # The frame is skipped only if one of the breaks really happens: as sure as they are.
            uncertain = all(
                (r.severity or all_rules()[r.code].severity) is not Severity.ERROR for r in inside
            )
            self.report(
                inside[0].node,
                message + " (in configurations that take the enclosing branch)"
                if conditional
                else message,
                hint=self.hint.format(codes=codes),
                severity=Severity.WARNING if conditional or uncertain else None,
            )
            earliest = min(inside, key=_line)
            if not (conditional or uncertain) and (
                self.skipped_from is None or _line(earliest) < _line(self.skipped_from)
            ):
                self.skipped_from = earliest

    def restate(self, reports: list[Report]) -> list[Report]:
        """Once a break in a loop certainly skips the frame, Dynamo traces nothing after it in
        this function (the functions it calls get frames of their own): the breaks that other
        rules see later in it are no breaks, only what runs eagerly there."""
        first = self.skipped_from
        if first is None:
            return reports
        line = _line(first)
        # Lines below it: on its own line, an argument runs before the call that holds it.
        last = getattr(first.node, "end_lineno", None) or line
        note = f" (no break of its own: the frame is skipped at line {line} and runs eagerly)"
        return [
            replace(report, severity=Severity.INFO, message=report.message + note)
            if all_rules()[report.code].breaks_graph and _line(report) > last
            else report
            for report in reports
        ]


def _line(report: Report) -> int:
    return getattr(report.node, "lineno", 0)


def _in_while_test(loop: Loop, report: Report) -> bool:
    """A break in the condition of the outermost `while` is before the loop, not inside it:
    Dynamo breaks the graph there and resumes at the loop head without skipping the frame."""
    return isinstance(loop, ast.While) and contains(loop.test, report.node)
