from __future__ import annotations

import ast

from breaklint.findings import Severity
from breaklint.rule import Report, RuleContext, all_rules
from breaklint.rules.control_flow._frame_skip import (
    ObservedSkip,
    line,
    severity_of,
    written_callee,
)
from breaklint.syntax import iter_nodes


class BreakHoldingOwnMethods(ObservedSkip):
    code = "BL209"
    name = "break-holding-own-methods"
    severity = Severity.ERROR
    message = (
        "graph break ({codes}) while `{function}` holds an object it made whose attributes "
        "hold bound methods of its own: Dynamo cannot rebuild them to resume after the break, "
        "so it skips the whole frame and `{function}` runs eagerly, with no graph at all"
    )
    hint = (
        "let a method choose the step when it is called (`def step(self, x): return "
        "self.euler(x)`) instead of storing a bound method in `__init__`, make the object "
        "outside the compiled code, or remove the break ({codes})"
    )
    return_message = (
        "`{function}` returns an object it made whose attributes hold bound methods of its "
        "own, after a graph break ({codes}): it runs as a frame of its own, which Dynamo "
        "cannot end without rebuilding the object, so it skips the frame here"
    )
    return_hint = (
        "let a method choose the step when it is called instead of storing a bound method in "
        "`__init__`, make the object in the caller, or remove the break ({codes})"
    )
    fix_safety = """
No automatic fix: the frame is skipped because an object holding a bound method of its own is
alive across the break. The break's own rule offers a fix where one exists, and once it is
fixed this finding goes too; otherwise the class would have to stop storing its own methods,
which changes what other code reading that attribute gets.
"""
    what = """
Flags the first graph break in a function (its own, or one inside a project function it calls)
after it made an object, held in a local that is read again after the break, of a project class
whose `__init__` (or an inherited one) stores a bound method of the instance on an attribute
(`self.step = self.euler`, one of several under an `if`, or from a dict of them); and, for each
such object made later, the first break after it: where the earlier skip may not happen (the
object made under an `if`), Dynamo resumes after that break and skips the frame at the later
one. It is an error where the break is certain, a warning otherwise; as after BL202, the
breaks on later lines become info once the skip is certain. Not flagged: an object whose
attributes hold values (a property read in `__init__` included), an object not read after the
break, an object made before the compiled code ran, and a break in a loop (BL202 reports that
skip).
"""
    why = """
At a graph break Dynamo compiles what it traced so far and rebuilds, in Python, every value
the rest of the function still uses. An object made while tracing is rebuilt from its
attributes, and a bound method of that object has no source Dynamo can load it from
("Reconstruction failure", GB0092): Dynamo gives up on the whole frame, which runs eagerly
from its start (measured with torch 2.13 and Python 3.11; the same object without the stored
method, or not used after the break, resumes after it). Returning it from a frame Dynamo
compiles is the same rebuild: a function that breaks runs as a frame of its own (its caller
breaks at the call, and the rest of the function is compiled as a frame after its own break),
so its `return` of the object fails and Dynamo skips that frame there; where the function does
not break, Dynamo inlines it and hands the object to the caller as it is. In a frame Dynamo
runs eagerly, an `nn.Module`'s `__init__` is a frame of its own that Dynamo then fails on as
well ("Uninitialized nn.Module", BL211).
"""
    example = """
import torch


class Stepper:
    def __init__(self, scale):
        self.scale = scale
        self.step = self.euler

    def euler(self, x):
        return x * self.scale


def solve(x):
    stepper = Stepper(2.0)
    print("solving")
    return stepper.step(x)


compiled = torch.compile(solve)
"""
    use_instead = """
import torch


class Stepper:
    def __init__(self, scale):
        self.scale = scale

    def step(self, x):
        return self.euler(x)

    def euler(self, x):
        return x * self.scale


def solve(x):
    stepper = Stepper(2.0)
    return stepper.step(x)


compiled = torch.compile(solve)
"""
    probe = "(solve, (torch.randn(8),))"
    gb_ids = ("GB0092",)
    reads_breaks = True
    skips_at_the_call = True  # Dynamo reports the skip at the call whose callee breaks
    skips_where_holders_are_made = True

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._made: list[tuple[str, int]] = []  # locals bound to such objects, and the line
        self._elsewhere: set[int] = set()  # reports in a loop or a nested function
        self._last_read: dict[str, int] | None = None  # by local: the last line it is read
        # `return`s of such objects, with the line where the latest one returned was made
        self._returns: list[tuple[ast.Return, int]] = []

    def visit_Assign(self, node: ast.Assign) -> None:
        facts = self.context.facts
        if not facts.method_holders or not facts.in_outer_function or len(node.targets) != 1:
            return
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and isinstance(value, ast.Call):
            written = written_callee(value.func)
            if written is not None and written in facts.method_holders:
                self._made.append((target.id, node.end_lineno or node.lineno))

    def visit_Return(self, node: ast.Return) -> None:
        facts = self.context.facts
        if node.value is None or not self._made or facts.loops or not facts.in_outer_function:
            return
        names = {
            n.id for n in iter_nodes(node.value) if isinstance(n, ast.Name)
        }  # the returned expression only: `return stepper, y`
        made = [at for name, at in self._made if name in names and at < node.lineno]
        if made:
            self._returns.append((node, max(made)))

    def finish(self, reports: list[Report]) -> None:
        super().finish(reports)
        if not self._returns:
            return
        callee_breaks = {id(report) for report in self.callee_breaks}
        breaks = [
            report
            for report in [*reports, *self.callee_breaks]
            if (id(report) in callee_breaks or all_rules()[report.code].breaks_graph)
            and id(report) not in self._elsewhere
        ]
        for node, made in self._returns:
            if self.skipped_from is not None and line(self.skipped_from) < node.lineno:
                return  # the frame is skipped before: the rest runs eagerly
            before = [report for report in breaks if line(report) < made]
            if not before:
                continue  # Dynamo inlines the function: the caller gets the object as it is
            # Certain where a certain break comes before, and no break while it is held may
            # skip the frame first (reported above, as a warning: a certain one sets
            # `skipped_from`).
            certain = any(
                severity_of(r) is Severity.ERROR and not self.conditional.get(id(r), True)
                for r in before
            ) and not any(made < line(r) < node.lineno for r in self.reports)
            codes = ", ".join(
                sorted({r.message if id(r) in callee_breaks else r.code for r in before})
            )
            self.report(
                node,
                self.return_message.format(codes=codes, function=self.context.function),
                hint=self.return_hint,
                severity=None if certain else Severity.WARNING,
            )

    def observe(self, report: Report) -> None:
        super().observe(report)
        facts = self.context.facts
        if facts.loops or not facts.in_outer_function:
            self._elsewhere.add(id(report))

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        if not self._made or id(report) not in self.conditional or id(report) in self._elsewhere:
            return None
        at = line(report)
        end = getattr(report.node, "end_lineno", None) or at
        reads = self._reads()
        held = [made for name, made in self._made if made < at and reads.get(name, 0) > end]
        if not held:
            return None
        # A block for each object, from where it is made: the first break after it is the skip
        # it causes. Where an earlier object's skip may not happen (made under an `if`), the
        # frame resumes after that break and a later object still skips it at its own first
        # break; after a certain skip that one is restated as info (`FrameSkip.restate`).
        return max(held), self.conditional[id(report)]

    def _reads(self) -> dict[str, int]:
        """The last line each local that holds such an object is read on."""
        if self._last_read is None:
            names = {name for name, _ in self._made}
            self._last_read = {}
            for node in iter_nodes(self.context.definition):
                if (
                    isinstance(node, ast.Name)
                    and node.id in names
                    and isinstance(node.ctx, ast.Load)
                ):
                    read = self._last_read.get(node.id, 0)
                    self._last_read[node.id] = max(read, node.lineno)
        return self._last_read
