"""What the rules share whose breaks skip a whole frame (BL202 in a loop, BL204 in a `try`
block): one finding per block at its first break, and the rest of the function restated as
running eagerly once a skip is certain, and as uncertain once one may happen."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace

from breaklint.findings import Fix, Severity
from breaklint.rule import Report, Rule, RuleContext, all_rules
from breaklint.syntax import contains, dotted, iter_nodes


class FrameSkip(Rule):
    """A rule that reports, for each block Dynamo cannot resume in, the first break inside it:
    `block_of(report)` says which block (by id) holds a report and whether it is under an
    `if` on a trace-time value."""

    breaks_graph = False  # it restates breaks that other rules report
    reads_breaks = True
    skips_frame = True
    # Whether Dynamo reports the skip at a call of a project function that breaks (else in the
    # callee, where that break's own finding is: the finding at the call is then info).
    skips_at_the_call = False

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.skipped_from: Report | None = None  # the first break that certainly skips
        self.maybe_skipped_from: Report | None = None  # the first that may skip
        # Breaks that skip the frame whenever the `if` branches they run under are taken:
        # what follows them in those branches runs eagerly.
        self.skipped_in_branch: list[Report] = []
        # Calls of project functions that break inside (`FunctionFacts.breaking_calls`), as
        # reports of their own: Dynamo breaks at the call while it inlines the callee.
        self.callee_breaks: list[Report] = []
        # Ids of this rule's reports whose block breaks only inside callees: their breaks have
        # findings (and Dynamo's reports) of their own there, so the skip here is told as info.
        self._through_callees: set[int] = set()

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        raise NotImplementedError

    def skip_node(self, block: int, first: Report) -> ast.AST:
        """Where the skip of a block is reported: at its first break (BL202, BL204)."""
        return first.node

    def skip_fix(self, node: ast.AST) -> Fix | None:
        """The fix of the skip reported at `node`, where the rule offers one."""
        return None

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        if not facts.breaking_calls or facts.skipped(node):
            return
        written = written_callee(node.func)
        entry = facts.breaking_calls.get(written) if written is not None else None
        if entry is None:
            return
        certainty, _, where = entry.partition(" ")
        code, _, place = where.partition(" ")
        certain = certainty == "certain" and not facts.conditional
        message = f"{code} in `{written}` at {place}"
        severity = Severity.ERROR if certain else Severity.WARNING
        report = Report(code, node, message, None, None, severity)
        self.callee_breaks.append(report)
        self.observe(report)

    def finish(self, reports: list[Report]) -> None:
        blocks: dict[int, list[tuple[Report, bool]]] = {}
        callee_breaks = {id(report) for report in self.callee_breaks}
        for report in [*reports, *self.callee_breaks]:
            where = self.block_of(report)
            if where is not None and (
                id(report) in callee_breaks or all_rules()[report.code].breaks_graph
            ):
                blocks.setdefault(where[0], []).append((report, where[1]))
        for block, inside in blocks.items():
            breaks = [report for report, _ in inside]
            codes = ", ".join(
                sorted({r.message if id(r) in callee_breaks else r.code for r in breaks})
            )
            message = self.message.format(codes=codes, function=self.context.function)
            # Under `if self.training:` or a config flag, only that configuration is affected.
            conditional = all(under_if for _, under_if in inside)
            # The frame is skipped only if one of the breaks really happens: as sure as they are.
            uncertain = all(severity_of(r) is not Severity.ERROR for r in breaks)
            # at the break Dynamo meets first: rules report in their own order, not the source's
            breaks.sort(key=line)
            at = self.skip_node(block, breaks[0])
            self.report(
                at,
                message + " (in configurations that take the enclosing branch)"
                if conditional
                else message,
                hint=(self.hint or "").format(codes=codes),
                severity=Severity.WARNING if conditional or uncertain else None,
                fix=self.skip_fix(at),
            )
            if not self.skips_at_the_call and all(id(r) in callee_breaks for r in breaks):
                self._through_callees.add(id(self.reports[-1]))
            earliest = breaks[0] if at is breaks[0].node else self.reports[-1]
            if conditional:
                self.skipped_in_branch += [r for r in breaks if r.error_when_taken]
            if conditional or uncertain:
                self._may_skip_from(earliest)
                continue
            # The skip is certain at its first certain break; a break before it that may not
            # happen (a warning: under a condition, a value only maybe a tensor) may skip first.
            certain = next(r for r in breaks if severity_of(r) is Severity.ERROR)
            if at is breaks[0].node and certain is not breaks[0]:
                self._may_skip_from(earliest)
                # Under their own `if`, they skip the frame where it is taken: what follows
                # them there is no break.
                self.skipped_in_branch += [
                    r
                    for r, under_if in inside
                    if under_if and r.error_when_taken and line(r) < line(certain)
                ]
                earliest = certain
            if self.skipped_from is None or line(earliest) < line(self.skipped_from):
                self.skipped_from = earliest

    def _may_skip_from(self, first: Report) -> None:
        if self.maybe_skipped_from is None or line(first) < line(self.maybe_skipped_from):
            self.maybe_skipped_from = first

    def restate(self, reports: list[Report]) -> list[Report]:
        """Once a break certainly skips the frame, Dynamo traces nothing after it in this
        function (the functions it calls get frames of their own): the breaks that other rules
        see later in it are no breaks, only what runs eagerly there. After a break that may
        skip it, they are breaks only where it does not: none of them is certain."""
        if self._through_callees:
            reports = [
                replace(report, severity=Severity.INFO)
                if id(report) in self._through_callees
                else report
                for report in reports
            ]
        # A later skip of this rule's is none once the frame is skipped, where the skip is
        # reported at the call (the others restate the breaks in the callees, as info).
        skips = self.code if self.skips_at_the_call else None
        reports = after_skip(reports, self.skipped_from, True, skips=skips)
        if self.skipped_in_branch:
            paths = branch_paths(self.context.definition)
            for first in self.skipped_in_branch:
                if (accepts := under(first, paths)) is not None:
                    reports = after_skip(reports, first, True, within=accepts)
            for first, end, accepts in skipped_both_ways(
                self.context.definition, self.skipped_in_branch, paths
            ):
                reports = after_skip(reports, first, True, within=accepts, after=end)
        return after_skip(reports, self.maybe_skipped_from, False)


def written_callee(func: ast.expr) -> str | None:
    """A call's callee as the index writes it (`breaking_calls`' keys): a dotted name, or
    `Helper().run` for a method of what a call returns."""
    name = dotted(func)
    if name is None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        maker = dotted(func.value.func)
        return None if maker is None else f"{maker}().{func.attr}"
    return name


Branches = tuple[tuple[int, int], ...]  # (an `if`'s id, 0 for its body or 1 for its `else`)


# The last function's paths: the rules that ask (a frame skip's restatement, BL205) ask for the
# same function one after the other. It holds the function, so the ids stay its nodes'.
_last_paths: tuple[ast.AST, dict[int, Branches]] | None = None


def branch_paths(function: ast.AST) -> Mapping[int, Branches]:
    """The `if` branches each node of a function runs under, outer first, by the node's id:
    a node whose path starts with another's runs only where that one's branches are taken."""
    global _last_paths
    last = _last_paths  # read once: one tuple, replaced whole
    if last is not None and last[0] is function:
        return last[1]
    paths: dict[int, Branches] = {}
    pending: list[tuple[ast.AST, Branches]] = [(function, ())]
    while pending:
        node, path = pending.pop()
        paths[id(node)] = path
        if isinstance(node, ast.If):
            pending.append((node.test, path))
            pending += [(child, (*path, (id(node), 0))) for child in node.body]
            pending += [(child, (*path, (id(node), 1))) for child in node.orelse]
        else:
            pending += [(child, path) for child in ast.iter_child_nodes(node)]
    _last_paths = (function, paths)
    return paths


def skipped_both_ways(
    function: ast.AST, skips: Sequence[Report], paths: Mapping[int, Branches]
) -> list[tuple[Report, int, Callable[[ast.AST], bool]]]:
    """The `if` statements both of whose ways skip the frame where the branches around them
    are taken (a break that skips it in the body and one in the `else`, or an inner `if` that
    skips both ways): past such an `if`, under those branches, Dynamo traces nothing. For each,
    its first skipping break, its last line, and which nodes run under those branches
    (measured on 2.13: tests/projects/skip_both_ways). `skips`: the breaks that skip the frame
    where their branches are taken (`FrameSkip.skipped_in_branch`)."""
    search = _BothWays(function, skips, paths)
    search.first_skip(())
    for path in search.by_path:
        for depth in range(1, len(path)):
            search.first_skip(path[:depth])
    return search.found


class _BothWays:
    """`skipped_both_ways`'s search, memoised by branch. A class rather than closures that
    call each other: those would form a cycle holding the function's tree, which nothing
    frees while the collector is paused (tests/test_memory.py)."""

    def __init__(
        self, function: ast.AST, skips: Sequence[Report], paths: Mapping[int, Branches]
    ) -> None:
        self.paths = paths
        self.by_path: dict[Branches, list[Report]] = {}
        for report in skips:
            self.by_path.setdefault(paths.get(id(report.node), ()), []).append(report)
        self.ifs = {id(node): node for node in iter_nodes(function) if isinstance(node, ast.If)}
        self.found: list[tuple[Report, int, Callable[[ast.AST], bool]]] = []
        self.firsts: dict[Branches, Report | None] = {}

    def inner(self, prefix: Branches) -> set[int]:
        """The `if` statements (ids) right under the branch `prefix` that hold skips."""
        depth = len(prefix)
        return {
            path[depth][0] for path in self.by_path if len(path) > depth and path[:depth] == prefix
        }

    def first_skip(self, branch: Branches) -> Report | None:
        """The first break that skips the frame on every way through `branch` (an `if`'s
        body or `else`): one right under it, or an `if` in it that skips both ways."""
        if branch not in self.firsts:
            candidates = list(self.by_path.get(branch, ()))
            candidates += [
                first for key in self.inner(branch) if (first := self.both_ways(branch, key))
            ]
            self.firsts[branch] = min(candidates, key=line, default=None)
        return self.firsts[branch]

    def both_ways(self, prefix: Branches, key: int) -> Report | None:
        statement = self.ifs.get(key)
        if statement is None or not statement.orelse:
            return None
        body = self.first_skip((*prefix, (key, 0)))
        orelse = self.first_skip((*prefix, (key, 1)))
        if body is None or orelse is None:
            return None
        first = min(body, orelse, key=line)
        self.found.append(
            (first, statement.end_lineno or statement.lineno, _under_prefix(self.paths, prefix))
        )
        return first


def _under_prefix(paths: Mapping[int, Branches], prefix: Branches) -> Callable[[ast.AST], bool]:
    """Which nodes run under the branches `prefix`."""
    depth = len(prefix)
    return lambda node: paths.get(id(node), ())[:depth] == prefix


def under(first: Report, paths: Mapping[int, Branches]) -> Callable[[ast.AST], bool] | None:
    """Which nodes run only where the `if` branches around `first` are taken (None when it is
    under none: a skip there is no more certain in any branch)."""
    branches = paths.get(id(first.node), ())
    if not branches:
        return None
    return lambda node: paths.get(id(node), ())[: len(branches)] == branches


class ObservedSkip(FrameSkip):
    """A frame skip that notes, for every report as it is made, whether it is under an `if` on
    a trace-time value (`conditional`)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.conditional: dict[int, bool] = {}  # by the report's id

    def observe(self, report: Report) -> None:
        self.conditional[id(report)] = self.context.facts.conditional


class BodySkip(ObservedSkip):
    """A frame skip at the first break in the body of a statement Dynamo cannot resume in
    (a `try`, a `with`): the statements are those `visit_*` adds to `self.blocks`. A break in a
    loop is BL202's."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.blocks: list[ast.Try | ast.TryStar | ast.With | ast.AsyncWith] = []  # outer first
        self._loops: list[ast.For | ast.AsyncFor | ast.While] = []
        self._bodies: list[tuple[int, set[int]]] | None = None  # ids of the nodes in each

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        self._loops.append(node)

    visit_AsyncFor = visit_While = visit_For

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        # Where the report's node is, not where the walk was: a rule may report a statement
        # once it has seen what follows it.
        if not self.blocks or id(report) not in self.conditional:
            return None
        if any(contains(loop, report.node) for loop in self._loops):
            return None  # a break in a loop: BL202's
        if self._bodies is None:
            self._bodies = [
                (id(node), {id(part) for statement in node.body for part in iter_nodes(statement)})
                for node in self.blocks
            ]
        for block, body in self._bodies:
            if id(report.node) in body:
                return block, self.conditional[id(report)]
        return None


def after_skip(
    reports: Sequence[Report],
    first: Report | None,
    certain: bool,
    skips: str | Collection[str] | None = None,
    within: Callable[[ast.AST], bool] | None = None,
    after: int | None = None,
) -> list[Report]:
    """The reports as a frame skip at `first` changes them: when the skip is certain (an error),
    the breaks on later lines are none, only what runs eagerly (info); when it may happen, they
    happen only if it does not, so none of them is certain (a warning at most). `skips` names a
    rule whose later reports are restated too: skips of the frame, which is skipped already.
    `within`: the skip is certain only where the `if` branches around it are taken, so only
    the reports whose node `within` accepts, under them, are restated (those not yet info).
    `after`: the last line of what skips (an `if` whose ways all do), where not `first`'s."""
    if first is None:
        return list(reports)
    skipping = {skips} if isinstance(skips, str) else set(skips or ())
    start = line(first)
    # Lines below it: on its own line, an argument runs before the call that holds it.
    last = after or getattr(first.node, "end_lineno", None) or start
    if certain:
        severity = Severity.INFO
        note = f" (no break of its own: the frame is skipped at line {start} and runs eagerly)"
    else:
        severity = Severity.WARNING
        note = f" (if the frame is not skipped at line {start} first)"
    return [
        replace(report, severity=severity, message=report.message + note)
        if line(report) > last
        and (within is None or (within(report.node) and not is_info(report)))
        and (
            all_rules()[report.code].breaks_graph or report.code in skipping
            if certain
            else restates_a_break(report) and severity_of(report) is Severity.ERROR
        )
        else report
        for report in reports
    ]


def restates_a_break(report: Report) -> bool:
    """A break, or a finding that a break skips the frame (BL202, BL204)."""
    rule = all_rules()[report.code]
    return rule.breaks_graph or issubclass(rule, FrameSkip)


def is_info(report: Report) -> bool:
    return report.severity is Severity.INFO


def severity_of(report: Report) -> Severity:
    return report.severity or all_rules()[report.code].severity


def line(report: Report) -> int:
    return getattr(report.node, "lineno", 0)


Position = tuple[int, int]


def position(node: ast.AST) -> Position | None:
    """Where an expression or statement starts: (line, column)."""
    if isinstance(node, ast.expr | ast.stmt):
        return node.lineno, node.col_offset
    return None


def own_breaks(reports: list[Report], in_frame: set[int]) -> list[tuple[Report, Position]]:
    """The reports of breaks (`Rule.breaks_graph`) among `reports` whose ids are `in_frame`
    (made in the function's own code outside loops: the frame resumes after them), with where
    each starts."""
    return [
        (report, at)
        for report in reports
        if id(report) in in_frame
        and all_rules()[report.code].breaks_graph
        and (at := position(report.node)) is not None
    ]
