from __future__ import annotations

import ast
from dataclasses import dataclass

from breaklint.findings import Severity
from breaklint.knowledge.curated import ITERATING_BUILTINS, ITERATORS_LOST_AT_BREAK
from breaklint.rule import Report, Rule, RuleContext
from breaklint.rules.control_flow._frame_skip import Position, own_breaks, position, severity_of
from breaklint.syntax import dotted


@dataclass(frozen=True, slots=True)
class _Binding:
    maker: str  # the builtin that made the iterator: `filter`, `map`, `zip`
    end: Position  # where the assignment ends: a break after it finds the object alive
    conditional: bool  # bound under an `if` on a trace-time value


@dataclass(frozen=True, slots=True)
class _Use:
    node: ast.expr  # the iterated name's expression, where the finding goes
    name: str
    binding: _Binding
    conditional: bool


class IteratorAcrossBreak(Rule):
    code = "BL212"
    name = "iterator-across-break"
    severity = Severity.ERROR
    reads_breaks = True
    words = ITERATORS_LOST_AT_BREAK
    message = (
        "`{name}` holds the `{maker}(...)` iterator made before the graph break on line {line} "
        "({codes}): Dynamo cannot iterate an object it did not make in the resumed frame, so it "
        "breaks here again, or runs the rest of the function eagerly"
    )
    hint = (
        "bind a tuple instead (`{name} = tuple({maker}(...))`), or remove the break between "
        "(see {codes})"
    )
    fix_safety = """
No automatic fix: binding `tuple(...)` of the iterator instead runs its function (the
predicate of `filter`, the function of `map`) before the break rather than where the values
are used, and holds every value at once, which changes code whose calls have side effects or
whose inputs are themselves lazy; removing the earlier break, where its rule offers a fix,
removes this finding too.
"""
    what = """
Flags the iteration, after a graph break in the same function, of a local bound before that
break to a `filter(...)`, `map(...)` or `zip(...)` object: star-unpacking it (`f(*params)`),
a `for` statement or a comprehension over it, or `list`, `tuple`, `set`, `sum` or `next` of
it. An error when the break is certain and neither the binding nor the iteration is under an
`if` on a trace-time value; a warning otherwise. Not flagged: an iterator made and used
between the same breaks, one consumed before the break (`params = tuple(filter(...))`),
`iter(...)` or `reversed(...)` of a list (Dynamo resumes with those), a binding or a use inside
a loop, and breaks in the functions the code calls (the call graph hands over only breaks in
loops, `try` bodies and generators).
"""
    why = """
After a graph break Dynamo compiles the rest of the function as a new frame, whose live
locals are its inputs. A `filter`, `map` or `zip` object made while tracing is one Dynamo can
step, but one handed to the resumed frame is an opaque object to it: iterating it breaks the
graph ("missing tp_iter", GB0811; `next` gives "Missing tp_iternext"), measured with torch 2.13
and Python 3.11 for each form above. Where it cannot resume at that instruction (star-unpacking
into a call or a list display, a `for` statement) it gives up on the resumed frame, and the
rest of the function runs eagerly.
"""
    example = """
import torch


def scaled_sum(x, weights):
    trainable = filter(lambda w: w.requires_grad, weights)
    print("weights:", len(weights))
    return x * torch.stack([*trainable]).sum()


compiled = torch.compile(scaled_sum)
"""
    use_instead = """
import torch


def scaled_sum(x, weights):
    trainable = filter(lambda w: w.requires_grad, weights)
    return x * torch.stack([*trainable]).sum()


compiled = torch.compile(scaled_sum)
"""
    probe = "(scaled_sum, (torch.randn(3), [torch.randn(3, requires_grad=True), torch.randn(3)]))"
    gb_ids = ("GB0811",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._bound: dict[str, _Binding] = {}  # each local's binding to an iterator, in order
        self._uses: list[_Use] = []
        self._in_frame: set[int] = set()  # ids of the reports made in the function's own frame

    def _straight_line(self, loop: ast.For | None = None) -> bool:
        """Whether the walk is in the function's own code outside loops (`loop`'s iterable
        is evaluated once, before it: the facts may already count it open)."""
        facts = self.context.facts
        return facts.in_outer_function and all(open_loop is loop for open_loop in facts.loops)

    def observe(self, report: Report) -> None:
        if self._straight_line():
            self._in_frame.add(id(report))

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        maker = (
            value.func.id
            if type(value) is ast.Call
            and type(value.func) is ast.Name
            and value.func.id in ITERATORS_LOST_AT_BREAK
            and dotted(value.func) not in self.context.facts.project_calls
            else None
        )
        for target in node.targets:
            if type(target) is not ast.Name:
                continue
            if maker is not None and self._straight_line():
                end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
                self._bound[target.id] = _Binding(maker, end, self.context.facts.conditional)
            else:
                self._bound.pop(target.id, None)

    def _iterates(self, node: ast.expr, loop: ast.For | None = None) -> None:
        if type(node) is not ast.Name or not self._straight_line(loop):
            return
        binding = self._bound.get(node.id)
        if binding is not None:
            self._uses.append(_Use(node, node.id, binding, self.context.facts.conditional))

    def visit_Starred(self, node: ast.Starred) -> None:
        self._iterates(node.value)

    def visit_For(self, node: ast.For) -> None:
        self._iterates(node.iter, node)

    def visit_ListComp(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
    ) -> None:
        self._iterates(node.generators[0].iter)

    visit_SetComp = visit_ListComp
    visit_DictComp = visit_ListComp
    visit_GeneratorExp = visit_ListComp

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            type(func) is ast.Name
            and func.id in ITERATING_BUILTINS
            and len(node.args) == 1
            and dotted(func) not in self.context.facts.project_calls
        ):
            self._iterates(node.args[0])

    def finish(self, reports: list[Report]) -> None:
        breaks = own_breaks(reports, self._in_frame)
        for use in self._uses:
            at = position(use.node)
            assert at is not None  # a name has a position
            between = sorted(
                ((report, start) for report, start in breaks if use.binding.end < start < at),
                key=lambda pair: pair[1],
            )
            if not between:
                continue
            first = between[0][1]
            before = [report for report, _ in between]
            codes = ", ".join(sorted({report.code for report in before}))
            certain = any(severity_of(report) is Severity.ERROR for report in before)
            sure = certain and not use.binding.conditional and not use.conditional
            self.report(
                use.node,
                self.message.format(
                    name=use.name, maker=use.binding.maker, line=first[0], codes=codes
                ),
                hint=self.hint.format(name=use.name, maker=use.binding.maker, codes=codes),
                severity=None if sure else Severity.WARNING,
            )
