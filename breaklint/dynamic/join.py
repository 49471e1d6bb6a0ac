"""Join static findings with the breaks Dynamo took: confirmed, not reproduced, not reached."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from breaklint.codes import (
    CUDAGRAPHS_SKIPPED,
    DYNAMO_FRAME_SKIPPED,
    DYNAMO_GRAPH_BREAK,
    DYNAMO_RECOMPILES,
    PROBE_FAILED,
)
from breaklint.dynamic.model import Break, ProbeResult, ProbeStatus, Span, each_skip_once
from breaklint.findings import BreakKind, Finding, Origin, ProbeFailure, Severity, Status
from breaklint.rule import Phase, all_rules
from breaklint.source import display_path, parse_python, read_source
from breaklint.syntax import iter_nodes


def is_statement_finding(finding: Finding) -> bool:
    """A static finding about code, which a probe can confirm or refute (not one about a file
    breaklint could not check)."""
    return finding.origin == Origin.STATIC and all_rules()[finding.code].phase is Phase.STATIC


def flagged_span(finding: Finding) -> Span:
    return Span(os.path.realpath(finding.path), finding.range)


@cache
def _statement_spans(real_path: str) -> dict[int, list[range]]:
    """Each line mapped to the lines of the simple statements and compound statements' headers
    that hold it: Dynamo reports a break at the line its instruction starts on, which for a
    call spread over several lines is the call's first line, not the argument a rule flags.
    Built once per file, so that a finding's statement is a lookup, not a scan."""
    text = read_source(real_path)
    try:
        tree = parse_python(text if isinstance(text, str) else "", real_path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    holding: dict[int, list[range]] = {}
    for node in iter_nodes(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            lines = range(node.lineno, max(node.lineno, body[0].lineno - 1) + 1)
        else:
            lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        for line in lines:
            holding.setdefault(line, []).append(lines)
    return holding


def _statement_lines(finding: Finding, real_path: str) -> range:
    """The lines of the innermost statement (or header) holding the finding."""
    holding = [
        lines
        for lines in _statement_spans(real_path).get(finding.line, ())
        if finding.end_line in lines
    ]
    if not holding:
        return range(finding.line, finding.end_line + 1)
    return min(holding, key=len)


def unique_breaks(results: Sequence[ProbeResult]) -> list[Break]:
    """Every break (and guard that failed on every new value) once, from the first probe that
    hit it."""
    seen: dict[tuple[str, str, int, str], Break] = {}
    for result in results:
        for item in (*result.breaks, *result.recompile_breaks):
            kept = seen.setdefault(item.key(), item)
            if _limit_hit(item) and not _limit_hit(kept):  # the costlier evidence
                seen[item.key()] = item
    return sorted(seen.values(), key=lambda b: (b.path, b.line, b.column, b.kind))


def _limit_hit(item: Break) -> bool:
    facts = item.evidence.recompiles
    return facts is not None and facts.limit_hit


def join(
    findings: Sequence[Finding],
    results: Sequence[ProbeResult],
    allowed: Callable[[str, str], bool],
) -> list[Finding]:
    """Give each static finding a status and turn unmatched breaks into dynamic findings.

    `allowed(code, path)` applies the selection (select, ignore, per-file-ignores) to the
    findings this phase creates.
    """
    breaks = unique_breaks(results)
    by_line: dict[tuple[str, int], list[Break]] = {}
    for item in breaks:
        by_line.setdefault((item.path, item.line), []).append(item)
    executed = set().union(*(r.executed for r in results))
    instrumented = set().union(*(r.instrumented for r in results))
    reached = set().union(*(r.reached for r in results))
    matched: set[int] = set()
    joined: list[Finding] = []
    rules = all_rules()
    for finding in findings:
        if not is_statement_finding(finding):
            joined.append(finding)
            continue
        span = flagged_span(finding)
        lines = range(finding.line, finding.end_line + 1)
        statement = _statement_lines(finding, span.path)
        # A recompile rule is confirmed by a guard failing on every value, the others by breaks.
        recompiles = rules[finding.code].recompiles
        hits = [
            b
            for line in statement
            for b in by_line.get((span.path, line), [])
            if (b.kind is BreakKind.RECOMPILES) == recompiles
        ]
        if hits:
            matched.update(id(b) for b in hits)
            joined.append(
                replace(
                    finding,
                    status=Status.CONFIRMED,
                    hint=hits[0].with_knob_note(finding.hint),
                    evidence=hits[0].evidence,
                )
            )
        elif span in reached or (
            span not in instrumented and any((span.path, line) in executed for line in lines)
        ):
            joined.append(replace(finding, status=Status.NOT_REPRODUCED))
        else:
            joined.append(replace(finding, status=Status.NOT_REACHED))
    joined = [rules[f.code].dynamic_status(f, joined) for f in joined]
    displayed = {os.path.realpath(f.path): f.path for f in findings}
    for item in breaks:
        if id(item) in matched:
            continue
        path = displayed.get(item.path) or display_path(item.path)
        if item.kind is BreakKind.RECOMPILES:
            finding = _recompile_finding(item, path)
        else:
            finding = break_finding(item, path)
        if allowed(finding.code, path):
            joined.append(finding)
    for item in each_skip_once(item for r in results for item in r.cudagraph_skips):
        path = displayed.get(item.path) or display_path(item.path)
        if allowed(CUDAGRAPHS_SKIPPED, path):
            joined.append(_cudagraphs_finding(item, path))
    for result in results:
        if result.status != ProbeStatus.OK and allowed(PROBE_FAILED, result.probe.path):
            joined.append(_probe_finding(result))
    return sorted(joined, key=Finding.sort_key)


def break_finding(item: Break, path: str) -> Finding:
    """A break that no static finding explains, at its place in `path` (as displayed)."""
    evidence = item.evidence
    if evidence.kind is BreakKind.FRAME_SKIPPED:
        rule = all_rules()[DYNAMO_FRAME_SKIPPED]
        what = f"Dynamo skipped `{evidence.function}`: it runs eagerly in full"
    else:
        rule = all_rules()[DYNAMO_GRAPH_BREAK]
        what = rule.message
    return _finding_at(
        rule.code,
        item,
        path,
        message=f"{what} ({evidence.gb_id or 'no GB id'}: {evidence.gb_type})"
        + (" on the second call only" if evidence.later_call else ""),
        url=evidence.gb_url or rule.url(),
        hint=item.with_knob_note(evidence.hints[0] if evidence.hints else rule.hint),
    )


def _recompile_finding(item: Break, path: str) -> Finding:
    """A guard that failed on every new value, at the line that installed it in `path`."""
    evidence = item.evidence
    facts = evidence.recompiles
    assert facts is not None  # a RECOMPILES break carries them
    limit = "; the recompile limit was reached: it now runs eagerly" if facts.limit_hit else ""
    return _finding_at(
        DYNAMO_RECOMPILES,
        item,
        path,
        message=(
            f"Dynamo compiles `{evidence.function}` again for every new value: the guard "
            f"`{facts.guard}` failed {facts.failures} times, {facts.compiles} compiles over "
            f"{facts.calls} calls{limit}"
        ),
        severity=Severity.ERROR if facts.limit_hit else Severity.WARNING,
        hint=evidence.hints[0] if evidence.hints else None,
    )


def _cudagraphs_finding(item: Break, path: str) -> Finding:
    """A graph Inductor ran without CUDA graphs, at the line its reason names in `path`."""
    evidence = item.evidence
    rule = all_rules()[CUDAGRAPHS_SKIPPED]
    return _finding_at(
        CUDAGRAPHS_SKIPPED,
        item,
        path,
        message=f"{rule.message}: {evidence.explanation}",
        hint=evidence.hints[0] if evidence.hints else rule.hint,
    )


def _finding_at(
    code: str,
    item: Break,
    path: str,
    *,
    message: str,
    hint: str | None,
    url: str | None = None,
    severity: Severity | None = None,
) -> Finding:
    """What Dynamo did at `item`, as a confirmed dynamic finding of rule `code` in `path`."""
    return all_rules()[code].finding(
        path,
        item.line,
        item.column,
        item.line,
        max(item.end_column, item.column),
        message=message,
        severity=severity,
        hint=hint,
        url=url,
        origin=Origin.DYNAMIC,
        status=Status.CONFIRMED,
        evidence=item.evidence,
    )


def _probe_finding(result: ProbeResult) -> Finding:
    """A probe that proves nothing: it raised, timed out or crashed its worker."""
    probe = result.probe
    label = "probe file" if probe.name == "<file>" else f"probe {probe.name}"
    return all_rules()[PROBE_FAILED].finding(
        probe.path,
        probe.line,
        1,
        message=f"{label} {result.status.value}: {result.error}",
        origin=Origin.DYNAMIC,
        evidence=ProbeFailure(probe.key, result.status.value),
    )


def findings_at(findings: Sequence[Finding], item: Break) -> list[Finding]:
    """The static findings whose statement (or header) holds the line where `item` broke."""
    return [
        finding
        for finding in findings
        if is_statement_finding(finding)
        and os.path.realpath(finding.path) == item.path
        and item.line in _statement_lines(finding, item.path)
    ]
