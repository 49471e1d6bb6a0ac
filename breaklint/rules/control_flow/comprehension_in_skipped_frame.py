from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.rule import FixExample, Report, Rule, RuleContext, all_rules
from breaklint.rules.control_flow._frame_skip import (
    Branches,
    FrameSkip,
    branch_paths,
    line,
    severity_of,
    under,
)
from breaklint.rules.control_flow._iterables import (
    Comprehension,
    comprehension_touches,
    list_or_dict,
    tuple_fix,
    tuple_iterable,
)

if TYPE_CHECKING:
    from breaklint.rewrites import Rewrite


@dataclass(frozen=True, slots=True)
class _Candidate:
    node: Comprehension
    touches: str  # what makes Dynamo compile its frame: a tensor it reads, or a torch module
    certain: bool  # the iterable is certainly a list or a dict, and `touches` no guess
    fix: Fix | None


class ComprehensionInSkippedFrame(Rule):
    code = "BL205"
    name = "comprehension-in-skipped-frame"
    reads_breaks = True
    severity = Severity.ERROR
    breaks_graph = False  # the frame it is in runs eagerly already; this is one more skip
    finishes_last = True  # the skips it reads are reported in the other rules' `finish`
    message = (
        "`{function}` runs eagerly (its frame is skipped at line {line}), and this "
        "comprehension is a frame of its own that reads `{touches}`: Dynamo compiles it "
        "alone, cannot step the list or dict iterator it is given, and skips it too"
    )
    # Where the skip is a maybe (its break may not happen): the same, told as uncertain.
    maybe_message = message.replace(
        "runs eagerly (its frame is skipped at line {line})",
        "may run eagerly (its frame is skipped at line {line} if that break happens)",
    )
    hint = (
        "remove the break that skips the frame (line {line}), or build the value with a "
        "`for` loop, which runs in the eager frame itself"
    )
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"tuple-iterable": tuple_iterable}
    fix_safety = """
Safe fix: a comprehension whose first iterable is certainly a list or a dict (`sorted(...)`,
`list(...)`, `.keys()`, `.items()`, a display) iterates `tuple(...)` of it: the same elements
in the same order, taken into a tuple in the eager frame around it, whose iterator Dynamo 2.13
steps, so the comprehension's frame compiles. The frame around it still runs eagerly: the
break that skips it has its own rule (BL202, BL204), which offers a fix where one exists.
"""
    what = """
Flags a list, set or dict comprehension in a compiled function whose frame a graph break
certainly skips (a break in a loop, BL202, in a `try` body, BL204, in a generator a builtin
consumes, BL206, or in some `with` blocks, BL207), anywhere in the function, before the break
or after it, when the comprehension iterates a list or a dict (`sorted()`, `list()`,
`.keys()`, a name of unknown type) and reads a tensor of the function (or a container of
tensors), the module itself in a method of an `nn.Module` class (`self.flags[k]`), or a torch
module (`torch.ones(...)`). It is an error when the skip is certain, the
iterable certainly a list or dict and the tensor no guess; a warning otherwise. Under a
configuration's `if` (`if self.flag:`), a skip in that branch counts for the comprehensions in
the same branch, as a warning; so does a skip that may happen (its break only maybe a tensor's,
or in a callee that may break), but not for a comprehension in a branch that the skip's own
`if` excludes (its `else`). Comprehensions over a tuple, a list display, `range()` or a
tensor, comprehensions that read no tensor (`[names[i] for i in order]`), and generator
expressions are not flagged: Dynamo 2.13 runs them without trouble. Only with Python before
3.12: from 3.12 on Python inlines comprehensions into the function (PEP 709) and they have no
frame of their own.
"""
    why = """
When Dynamo skips a frame, the function runs eagerly from its start, and every frame it
creates is offered to Dynamo again. Before Python 3.12 a comprehension is a function of its
own: Dynamo compiles its frame when it reads a tensor, a module or a container of them from
the enclosing function, or a torch module (`has_tensor_in_frame`). That frame's only argument
is the iterator of the comprehension's first iterable, which Dynamo cannot step when it comes
from a list or a dict ("Missing tp_iternext", GB4347): it skips that frame as well (measured
with torch 2.13 and Python 3.11; a `range`, a tuple or a comprehension that reads no tensor is
compiled or left alone without a failure).
"""
    example = """
import torch


def pick(x, order):
    parts = [x, x + 1]
    for _ in range(2):
        x = x + int(x.sum())
    picked = [parts[i] for i in sorted(order)]
    return picked[0] * x


compiled = torch.compile(pick)
"""
    use_instead = """
import torch


def pick(x, order):
    parts = [x, x + 1]
    for _ in range(2):
        x = x + x.sum()
    picked = [parts[i] for i in sorted(order)]
    return picked[0] * x


compiled = torch.compile(pick)
"""
    probe = "(pick, (torch.randn(8), [1, 0]))"
    gb_ids = ("GB4347",)
    fix_examples = (
        FixExample(
            before=example,
            after=example.replace("for i in sorted(order)]", "for i in tuple(sorted(order))]"),
            probe=probe,
            # `int(x.sum())` in the loop still breaks and skips `pick`'s frame (BL102's fix
            # removes that); the comprehension's frame is no longer skipped.
            counts=(0, 1),
            frames_skipped=1,
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._candidates: list[_Candidate] = []

    def visit_ListComp(self, node: Comprehension) -> None:
        facts = self.context.facts
        if not facts.in_outer_function:
            return  # a nested function's comprehension: its frame, not this one
        iterable = list_or_dict(facts, node.generators[0].iter)
        if iterable is None:
            return
        touches = comprehension_touches(self.context, node)
        if touches is not None:
            name, guess = touches
            fix = tuple_fix(self.context, node, self.fix_applicability)
            self._candidates.append(_Candidate(node, name, iterable and not guess, fix))

    visit_SetComp = visit_ListComp
    visit_DictComp = visit_ListComp

    def finish(self, reports: list[Report]) -> None:
        skipping = [r for r in reports if issubclass(all_rules()[r.code], FrameSkip)]
        skips = [report for report in skipping if severity_of(report) is Severity.ERROR]
        skipped_at = line(min(skips, key=line)) if skips else None
        # A skip that a configuration decides (under `if self.flag:`) is certain for the
        # comprehensions under the same branches: they run only where it is taken.
        in_branch = self._skips_in_branch(reports, skipping) if skipped_at is None else []
        # A skip that may happen (a break only maybe a tensor's, or in a callee that may
        # break, or under an `if`) makes the frame's comprehensions maybe skipped too, but for
        # those in a branch its own excludes (the `else` of the `if` it is under).
        maybe = [report for report in skipping if severity_of(report) is Severity.WARNING]
        if skipped_at is None and not in_branch and not maybe:
            return
        paths = branch_paths(self.context.definition) if maybe and skipped_at is None else {}
        restated = {id(r.node) for r in reports if r.code == "BL203"}
        for candidate in self._candidates:
            if id(candidate.node) in restated:
                continue  # BL203 reports it already
            at, severity = skipped_at, None if candidate.certain else Severity.WARNING
            template = self.message
            if at is None:
                taken = [first for first, accepts in in_branch if accepts(candidate.node)]
                if not taken:
                    where = paths.get(id(candidate.node), ())
                    taken = [r for r in maybe if not _exclusive(paths.get(id(r.node), ()), where)]
                    template = self.maybe_message
                if not taken:
                    continue
                at, severity = line(min(taken, key=line)), Severity.WARNING
            message = template.format(
                function=self.context.function, line=at, touches=candidate.touches
            )
            self.report(
                candidate.node,
                message,
                hint=self.hint.format(line=at),
                fix=candidate.fix,
                severity=severity,
            )

    def _skips_in_branch(
        self, reports: list[Report], skipping: list[Report]
    ) -> list[tuple[Report, Callable[[ast.AST], bool]]]:
        """The breaks that skip the frame where the `if` branches they are under are taken,
        each with which reports run only there."""
        nodes = {id(report.node) for report in skipping}
        breaks = [
            r
            for r in reports
            if id(r.node) in nodes and r.error_when_taken and all_rules()[r.code].breaks_graph
        ]
        if not breaks:
            return []
        paths = branch_paths(self.context.definition)
        found = [(first, under(first, paths)) for first in breaks]
        return [(first, accepts) for first, accepts in found if accepts is not None]


def _exclusive(one: Branches, other: Branches) -> bool:
    """Whether no run takes both paths: they part at two arms of the same `if`."""
    for (first_if, first_arm), (second_if, second_arm) in zip(one, other, strict=False):
        if (first_if, first_arm) != (second_if, second_arm):
            return first_if == second_if
    return False
