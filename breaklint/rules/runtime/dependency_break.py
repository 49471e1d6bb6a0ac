import ast
from collections.abc import Mapping
from typing import ClassVar

from breaklint.findings import Severity
from breaklint.rule import Outline, Report, Rule, RuleContext, all_rules
from breaklint.rules.control_flow._frame_skip import (
    after_skip,
    branch_paths,
    line,
    severity_of,
    under,
)
from breaklint.syntax import dotted


class DependencyBreak(Rule):
    code = "BL516"
    name = "dependency-break"
    severity = Severity.WARNING
    message = "`{target}` breaks the graph at {where} ({code}): {why}"
    hint = (
        "call the library outside the compiled code and pass its result in, or wrap the "
        "call in `torch.compiler.disable` to keep the rest in one graph; a break inside the "
        "library is fixed in the library"
    )
    fix_safety = """
No automatic fix: the break is in an installed library's code, which breaklint never writes,
and moving the call out of the compiled function changes what the function computes.
"""
    what = """
Flags calls, in compiled code, that reach a function of an installed library (a package on the
interpreter's `sys.path`, outside the linted tree, not torch) whose code breaks the graph. The
library's source is read (never imported) and checked with the same rules as the linted code,
following only what the compiled code reaches; a break found there is reported at the linted
call, naming the library's function and the break. On by default: `--no-dependencies` (or
`dependencies = false` in `[tool.breaklint]`) turns it off; where the library is not installed
(pre-commit's isolated environment) nothing is followed.
"""
    why = """
Dynamo inlines an installed library's Python code as it inlines yours: a break inside it breaks
the graph at your call, and Dynamo's report points into the library. The finding is a warning:
whether the library takes the path that breaks depends on the values it is given. Where the
break is under an `if` the library decides while tracing from values (not tensors: an axis name
that is a Python keyword, an option left at its default), the finding is only information: the
values your call passes most often do not take that branch, and Dynamo then does not break
(measured on 2.13). A library context manager that breaks as it is entered (`with shared():`
of a generator context manager whose code before its `yield` breaks) skips the whole frame:
Dynamo traces nothing of the function (no graph, measured on 2.13), so the breaks after the
`with` are told as what runs eagerly (as information, or where the library's break may not
happen, as warnings).
"""
    example_library: ClassVar[Mapping[str, str]] = {
        "scaling/__init__.py": "from .ops import rescale\n",
        "scaling/ops.py": """
def rescale(x):
    peak = float(x.abs().max())
    return x / peak
""",
    }
    example = """
import torch
from scaling import rescale


class Normalised(torch.nn.Module):
    def forward(self, x):
        return rescale(x) * 2
"""
    use_instead = """
import torch


class Normalised(torch.nn.Module):
    def forward(self, x):
        return x / x.abs().max() * 2
"""
    probe = "(Normalised(), (torch.randn(8),))"

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # The managers of `with` items, by id: a library's context manager whose entering
        # breaks skips the frame there.
        self._entered: set[int] = set()
        # The reports at a `with` item, by the report's id: whether the library's break is
        # certain (its skip then is). Not one under the library's `if` on values (info): the
        # values passed most often do not take that way.
        self._skips: dict[int, bool] = {}

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.dependency_breaks)

    def visit_withitem(self, node: ast.withitem) -> None:
        self._entered.add(id(node.context_expr))

    def restate(self, reports: list[Report]) -> list[Report]:
        """Entering a library's context manager that breaks (`with shared():` of a generator
        context manager whose code before its `yield` breaks) skips the whole frame (measured
        on 2.13: a frame skip at the `with`, no graph): the breaks and
        frame skips other rules see after the `with` are no breaks of their own, only what
        runs eagerly; where the library's break may not happen, none of them is certain."""
        entered = [report for report in reports if id(report) in self._skips]
        if not entered:
            return reports
        first = min(entered, key=line)
        # The later skips of the frame (BL202, BL204, ...) and this rule's later reports.
        skips = {code for code, rule in all_rules().items() if rule.skips_frame} | {self.code}
        # What an earlier restatement made information already (after a later skip) stays so.
        live = [report for report in reports if severity_of(report) is not Severity.INFO]
        if not self._skips[id(first)]:
            restated = iter(after_skip(live, first, False, skips=skips))
        else:
            # Under `if` branches, certain only where they are taken.
            accepts = under(first, branch_paths(self.context.definition))
            restated = iter(after_skip(live, first, True, skips=skips, within=accepts))
        return [
            report if severity_of(report) is Severity.INFO else next(restated) for report in reports
        ]

    def visit_Call(self, node: ast.Call) -> None:
        breaks = self.context.dependency_breaks
        written = dotted(node.func)
        if written is None:
            return
        prefix = f"{written}="
        for entry in breaks:
            if entry.startswith(prefix):
                certainty, target, where, code, why = entry[len(prefix) :].split(" ", 4)
                message = self.message.format(target=target, where=where, code=code, why=why)
                if certainty == "guarded":
                    # Under an `if` the library decides from the values it is given (an axis
                    # name that is a keyword, an option): whether the call takes that way is
                    # not known here.
                    message += " (only where the values passed take the library's branch)"
                    self.report(node, message, severity=Severity.INFO)
                else:
                    self.report(node, message)
                if id(node) in self._entered and certainty != "guarded":
                    self._skips[id(self.reports[-1])] = certainty == "certain"
                return
