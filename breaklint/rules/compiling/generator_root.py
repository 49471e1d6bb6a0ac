import ast
from dataclasses import replace

from breaklint.findings import Severity
from breaklint.rule import Report, Rule, RuleContext
from breaklint.rules.control_flow._frame_skip import (
    line,
    restates_a_break,
    severity_of,
    written_callee,
)


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
to `torch.compile`, a hook). The breaks other rules find in such a generator are info: nothing
of it is traced. In a generator function the compiled code iterates (`for part in
chunks(x):`), the breaks after the first certain one (its own, or in a function it calls) are
info too: Dynamo gives up on the iterating frame there, and the generator runs eagerly from
then on.
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

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._generator = False  # whether the function itself yields
        self._lambdas = 0  # lambdas around the node visited: a `yield` there is the lambda's
        # Calls in its body of project functions that certainly break inside (as `FrameSkip`
        # reads `FunctionFacts.breaking_calls`): Dynamo breaks at the call too.
        self._breaking_calls: list[ast.Call] = []

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._lambdas += 1

    def leave_Lambda(self, node: ast.Lambda) -> None:
        self._lambdas -= 1

    def visit_Yield(self, node: ast.Yield | ast.YieldFrom) -> None:
        if self._lambdas or not self.context.facts.in_outer_function:
            return
        self._generator = True
        if self.context.root:
            self.report(node, self.message.format(function=self.context.function))

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        if not facts.breaking_calls or facts.conditional or not facts.in_outer_function:
            return
        written = written_callee(node.func)
        entry = facts.breaking_calls.get(written) if written is not None else None
        if entry is not None and entry.startswith("certain "):
            self._breaking_calls.append(node)

    def restate(self, reports: list[Report]) -> list[Report]:
        """Dynamo runs a generator function only inlined in the frame that iterates it (a
        compiled root that is one it skips whole, BL801): at the first certain break in its
        body it gives up on that frame, and the generator runs eagerly from there, so the
        breaks after it are none (measured on 2.13: tests/projects/generator_breaks)."""
        if not self._generator:
            return reports
        mine = [report for report in reports if report.code == self.code]
        certain = [
            (report.node, line(report))
            for report in reports
            if restates_a_break(report) and severity_of(report) is Severity.ERROR
        ]
        certain += [(call, call.lineno) for call in self._breaking_calls]
        if mine:
            function = self.context.function
            note = f" (no break of its own: Dynamo skips the generator `{function}` whole)"
            last = 0
        elif certain:
            node, start = min(certain, key=lambda pair: pair[1])
            last = getattr(node, "end_lineno", None) or start
            note = (
                f" (no break of its own: `{self.context.function}` is a generator, and Dynamo "
                f"gives up on the frame that iterates it at line {start}: the rest runs "
                "eagerly)"
            )
        else:
            return reports
        return [
            replace(report, severity=Severity.INFO, message=report.message + note)
            if line(report) > last
            and report.code != self.code
            and restates_a_break(report)
            and report.severity is not Severity.INFO
            else report
            for report in reports
        ]

    visit_YieldFrom = visit_Yield
