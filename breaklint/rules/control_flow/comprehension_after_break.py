from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer, owns_its_lines
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Report, Rule, RuleContext, all_rules
from breaklint.rules.control_flow._frame_skip import Position, own_breaks, position, severity_of
from breaklint.rules.control_flow._iterables import (
    Comprehension,
    comprehension_targets,
    list_or_dict,
    tuple_fix,
    tuple_iterable,
)
from breaklint.syntax import contains, iter_nodes

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _as_loop(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `for-loop` fix: `name = [e for t in it if c]` becomes `name = []` and a `for`
    statement (an `if` per condition) appending `e`; a dict comprehension sets `name[k] = v`."""
    import libcst as cst

    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return None
    assign = node.body[0]
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return None
    name, built = assign.targets[0].target, assign.value
    add: cst.BaseSmallStatement
    if isinstance(built, cst.ListComp):
        empty: cst.BaseExpression = cst.List([])
        append = cst.Attribute(name.deep_clone(), cst.Name("append"))
        add = cst.Expr(cst.Call(append, [cst.Arg(built.elt)]))
    elif isinstance(built, cst.DictComp):
        empty = cst.Dict([])
        item = cst.Subscript(name.deep_clone(), [cst.SubscriptElement(cst.Index(built.key))])
        add = cst.Assign([cst.AssignTarget(item)], built.value)
    else:
        return None
    loops: list[cst.CompFor] = []
    clause: cst.CompFor | None = built.for_in
    while clause is not None:
        loops.append(clause)
        clause = clause.inner_for_in
    body: cst.BaseStatement = cst.SimpleStatementLine([add])
    for loop in reversed(loops):
        for condition in reversed(loop.ifs):
            body = cst.If(condition.test, cst.IndentedBlock([body]))
        body = cst.For(loop.target, loop.iter, cst.IndentedBlock([body]))
    start = node.with_changes(body=[assign.with_changes(value=empty)])
    return cst.FlattenSentinel([start, body])


_PER_HEAD = """
import torch


def per_head(x, names):
    y = x * 2
    print("heads:", names)
    heads = {name: y for name in sorted(names)}  # one entry per head
    return heads


compiled = torch.compile(per_head)
"""
_HEADS = """    heads = {name: y for name in sorted(names)}  # one entry per head
    return heads
"""
# The name is the comprehension's own: no `for` statement, a tuple to iterate.
_NAMES = """    names = {name: y for name in sorted(names)}
    return names
"""


@dataclass(frozen=True, slots=True)
class _Candidate:
    node: Comprehension
    tensor: str  # the tensor of the function it yields as it is (`y`, `parts[i]`), as written
    certain: bool  # the iterable is certainly a list or a dict
    conditional: bool  # under an `if` on a trace-time value
    tuple_fix: Fix | None  # where the `for` statement fix does not fit


class ComprehensionAfterBreak(Rule):
    code = "BL203"
    name = "comprehension-after-break"
    reads_breaks = True
    # A list, set or dict comprehension is written with `for`: the walk leaves the rule out of
    # the functions without it, and its hooks (it asks the kind of every call and operator)
    # cost nothing there.
    words = frozenset({"for"})
    severity = Severity.ERROR
    breaks_graph = False  # it restates a break that another rule reports, and its cost
    message = (
        "after the graph break on line {line} ({codes}), this comprehension yields `{tensor}`, "
        "a tensor of `{function}`, as it is while iterating a list or dict: Dynamo cannot "
        "step that iterator in the resumed frame and skips the rest of `{function}`, which "
        "runs eagerly"
    )
    hint = (
        "build it with a `for` loop (`d[k] = {tensor}`) or `dict.fromkeys(keys, {tensor})`, "
        "or remove the graph break before it"
    )
    fix_examples = (
        FixExample(
            before=_PER_HEAD,
            after="""
import torch


def per_head(x, names):
    y = x * 2
    print("heads:", names)
    heads = {}  # one entry per head
    for name in sorted(names):
        heads[name] = y
    return heads


compiled = torch.compile(per_head)
""",
            probe='(per_head, (torch.randn(8), ["q", "k"]))',
            # The `print` still breaks (BL401 fixes it); the frame after it is no longer skipped.
            counts=(1, 1),
        ),
        FixExample(
            before=_PER_HEAD.replace(_HEADS, _NAMES),
            after=_PER_HEAD.replace(
                _HEADS, _NAMES.replace("sorted(names)", "tuple(sorted(names))")
            ),
            probe='(per_head, (torch.randn(8), ["q", "k"]))',
            counts=(1, 1),
        ),
    )
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "for-loop": _as_loop,
        "tuple-iterable": tuple_iterable,
    }
    fix_safety = """
Safe fix: a list or dict comprehension that is the whole value of an assignment to a name,
`name = [e for t in it if c]`, becomes `name = []` and a `for` statement (an `if` per
condition, a `for` per clause) that appends `e`, or sets `name[k] = v`; Dynamo 2.13 compiles
the resumed frame then. Offered only when the loop variables appear nowhere else in the
function (a `for` binds them in the function, a comprehension does not), `name` does not
appear in the comprehension (it is bound before the loop now), and for a dict, its key or its
value is a name or a constant (the assignment evaluates the value first). Where that does not
fit (the name is the comprehension's own, a set comprehension, a value that is not a whole
assignment) and the first iterable is certainly a list or a dict, it iterates `tuple(...)` of
it: the same elements in the same order, whose iterator Dynamo 2.13 steps in the resumed
frame. Fixing the earlier break (its rule offers a fix where one exists) removes this finding
too.
"""
    what = """
Flags a list, set or dict comprehension that comes after a graph break in the same function,
iterates a list or a dict (`.tolist()`, `sorted()`, `list()`, `.keys()`, `.items()`, a name
of unknown type) and yields a tensor of the function unchanged (`{k: y for k in keys}`,
`[(y, k) for k in keys]`), or an item of a container of its tensors as it is (`[parts[i] for i
in order]`), where the rest of the function after the break neither computes on a tensor
(a torch call, a tensor method, arithmetic on tensors; reading `y.shape` is none) nor breaks
again. It is an error when the iterable is certainly a list or dict, the earlier break certain
and such an operation or later break nowhere, a warning otherwise (one only under an `if` on a
trace-time value). Comprehensions over a tuple, a list display,
`range()` or a tensor, generator expressions, and comprehensions that compute on the tensor
(`[y + k for k in keys]`, `[parts[i] * 2 for i in order]`) are not flagged: Dynamo 2.13 traces them.
"""
    why = """
After a graph break Dynamo compiles the rest of the function as a new frame. Where that frame
runs to its end without a tensor operation, Dynamo has no graph to make and runs it eagerly
("No ops traced"); with Python 3.11 a comprehension there is a frame of its own, which Dynamo
compiles because it captures one of the function's tensors, and it does not support `next()`
on a list or dict iterator it did not make ("Missing tp_iternext", GB4347). Measured with
torch 2.13: an operation on a tensor anywhere in the resumed frame, or a second break after
the comprehension, keeps the frame compiled and the comprehension traced; a `for` statement
instead of the comprehension, or no earlier break, compiles too.
"""
    example = """
import torch


def per_head(x, names):
    y = x * 2
    print("heads:", names)
    return {name: y for name in sorted(names)}


compiled = torch.compile(per_head)
"""
    use_instead = """
import torch


def per_head(x, names):
    y = x * 2
    return {name: y for name in sorted(names)}


compiled = torch.compile(per_head)
"""
    probe = '(per_head, (torch.randn(8), ["q", "k"]))'
    gb_ids = ("GB4347",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._candidates: list[_Candidate] = []
        self._in_frame: set[int] = set()  # ids of reports made in the function's own frame
        # Every name in the function, by how often, counted for the first fix that asks.
        self._uses: Counter[str] | None = None
        self._assigned: dict[int, ast.Assign] = {}  # `name = <comprehension>`, by its value
        # The tensor operations of the function's own code (a torch call, a tensor method,
        # arithmetic on tensors), each with whether it runs only under a trace-time `if`: one
        # in the resumed frame gives Dynamo a graph, and it keeps the frame.
        self._operations: list[tuple[ast.expr, bool]] = []

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self._assigned[id(node.value)] = node

    def observe(self, report: Report) -> None:
        facts = self.context.facts
        if facts.in_outer_function and not facts.loops:
            self._in_frame.add(id(report))

    def visit_Call(self, node: ast.expr) -> None:
        facts = self.context.facts
        if facts.in_outer_function and facts.kind(node).is_tensor:
            self._operations.append((node, facts.conditional))

    visit_BinOp = visit_Call
    visit_UnaryOp = visit_Call

    def visit_ListComp(self, node: Comprehension) -> None:
        facts = self.context.facts
        if not facts.in_outer_function or facts.loops:
            return  # a break in a loop skips the whole frame already (BL202)
        iterable = list_or_dict(facts, node.generators[0].iter)
        if iterable is None:
            return
        targets = comprehension_targets(node)
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for held in (n for element in elements for n in _as_they_are(element)):
            # `y`, a tensor of the function, or `parts[i]`, an item of a container of them
            name = held.value if isinstance(held, ast.Subscript) else held
            assert isinstance(name, ast.Name)  # as `_as_they_are` gives them
            kind = facts.kind(name)
            if name.id not in targets and (
                kind is Kind.TENSORS if held is not name else kind.is_tensor
            ):
                fix = tuple_fix(self.context, node, self.fix_applicability)
                written = ast.unparse(held)
                candidate = _Candidate(node, written, iterable, facts.conditional, fix)
                self._candidates.append(candidate)
                return

    visit_SetComp = visit_ListComp
    visit_DictComp = visit_ListComp

    def finish(self, reports: list[Report]) -> None:
        breaks = own_breaks(reports, self._in_frame)
        for candidate in self._candidates:
            node = candidate.node
            before = [
                report
                for report, at in breaks
                if at < (node.lineno, node.col_offset)
                or contains(node.generators[0].iter, report.node)
            ]
            if not before:
                continue
            kept = self._frame_kept(node, before, breaks)
            if kept is Severity.ERROR:
                continue
            first = position(before[0].node)
            assert first is not None
            codes = ", ".join(sorted({r.code for r in before}))
            message = self.message.format(
                line=first[0],
                codes=codes,
                tensor=candidate.tensor,
                function=self.context.function,
            )
            certain_break = any(
                (r.severity or all_rules()[r.code].severity) is Severity.ERROR for r in before
            )
            sure = (
                candidate.certain and certain_break and not candidate.conditional and kept is None
            )
            self.report(
                node,
                message,
                hint=self.hint.format(tensor=candidate.tensor),
                fix=self._loop_fix(node) or candidate.tuple_fix,
                severity=None if sure else Severity.WARNING,
            )

    def _frame_kept(
        self, node: Comprehension, before: list[Report], breaks: list[tuple[Report, Position]]
    ) -> Severity | None:
        """Whether Dynamo keeps the frame resumed after the last break before `node` (ERROR:
        certainly; WARNING: in some configurations; None: it skips it): it does where that
        frame computes on a tensor outside the comprehension, or breaks again after it; only
        a resumed frame that runs to its end with no operation traced is left to run eagerly,
        and the comprehension then becomes a frame of its own (measured on 2.13)."""
        starts = [at for report in before if (at := position(report.node)) is not None]
        resumed = max(starts)
        end = node.end_lineno or node.lineno, node.end_col_offset or 0
        again = [report for report, at in breaks if at > end]
        breaking = [report.node for report, _ in breaks]
        operations = [
            conditional
            for operation, conditional in self._operations
            if (at := position(operation)) is not None
            and at > resumed
            and not contains(node, operation)
            and not any(contains(where, operation) for where in breaking)
        ]
        if any(severity_of(r) is Severity.ERROR for r in again) or not all(operations):
            return Severity.ERROR
        if again or operations:
            return Severity.WARNING
        return None

    def _loop_fix(self, node: Comprehension) -> Fix | None:
        """The `for` statement fix, where it changes nothing but the frame Dynamo compiles."""
        statement = self._assigned.get(id(node))
        if statement is None or isinstance(node, ast.SetComp):
            return None
        if any(generator.is_async for generator in node.generators):
            return None
        if isinstance(node, ast.DictComp) and not any(
            isinstance(part, ast.Name | ast.Constant) for part in (node.key, node.value)
        ):
            return None
        inside = Counter(name.id for name in ast.walk(node) if isinstance(name, ast.Name))
        variables = {
            name.id
            for generator in node.generators
            for name in ast.walk(generator.target)
            if isinstance(name, ast.Name)
        }
        target = statement.targets[0]
        assert isinstance(target, ast.Name)  # as visit_Assign keeps them
        if self._uses is None:
            self._uses = Counter(
                name.id
                for name in iter_nodes(self.context.definition)
                if isinstance(name, ast.Name)
            )
        uses = self._uses
        if inside[target.id] or any(uses[v] != inside[v] for v in variables):
            return None
        if not owns_its_lines(self.context, statement):
            return None
        message = "build it with a `for` statement"
        return offer(self.context, statement, message, "for-loop", self.fix_applicability)


def _as_they_are(element: ast.expr) -> list[ast.Name | ast.Subscript]:
    """The names an element holds without computing on them: `y`, `(y, k)`, `[y]`, and the
    items of named containers: `parts[i]`."""
    if isinstance(element, ast.Name):
        return [element]
    if isinstance(element, ast.Subscript) and isinstance(element.value, ast.Name):
        return [element]
    if isinstance(element, ast.Tuple | ast.List | ast.Set):
        return [name for item in element.elts for name in _as_they_are(item)]
    if isinstance(element, ast.Dict):
        return [name for item in element.values for name in _as_they_are(item)]
    return []
