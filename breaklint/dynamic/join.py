"""Join static findings with the breaks Dynamo took: confirmed, not reproduced, not reached."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from breaklint.dynamic.model import Break, BreakKind, ProbeResult, ProbeStatus, Span, break_fields
from breaklint.findings import Finding, Origin, Status
from breaklint.rule import all_rules
from breaklint.source import read_source

GRAPH_BREAK, FRAME_SKIPPED, PROBE_FAILED = "BL900", "BL901", "BL902"
_FILE_PROBLEMS = "BL0"  # parse errors and the like describe files, not statements
_HOOK_REGISTRATION = "BL701"  # points at a registration; the hook's own findings hold the breaks
_REACHED_FROM = "reached from "
_KNOB_NOTE = "Dynamo did not break here when rerun with torch._dynamo.config.{} = True"


def is_statement_finding(finding: Finding) -> bool:
    """A static finding about code, which a probe can confirm or refute."""
    return finding.origin == Origin.STATIC and not finding.code.startswith(_FILE_PROBLEMS)


def flagged_span(finding: Finding) -> Span:
    return Span(
        os.path.realpath(finding.path),
        finding.line,
        finding.column,
        finding.end_line,
        finding.end_column,
    )


@cache
def _statement_spans(real_path: str) -> tuple[tuple[int, int], ...]:
    """(first, last) line of every simple statement and of every compound statement's header
    in a file: Dynamo reports a break at the line its instruction starts on, which for a call
    spread over several lines is the call's first line, not the argument a rule flags."""
    text = read_source(real_path)
    try:
        tree = ast.parse(text if isinstance(text, str) else "")
    except (SyntaxError, ValueError):
        return ()
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            spans.append((node.lineno, max(node.lineno, body[0].lineno - 1)))
        else:
            spans.append((node.lineno, node.end_lineno or node.lineno))
    return tuple(spans)


def _statement_lines(finding: Finding, real_path: str) -> range:
    """The lines of the innermost statement (or header) holding the finding."""
    holding = [
        (first, last)
        for first, last in _statement_spans(real_path)
        if first <= finding.line and finding.end_line <= last
    ]
    if not holding:
        return range(finding.line, finding.end_line + 1)
    first, last = min(holding, key=lambda span: span[1] - span[0])
    return range(first, last + 1)


def unique_breaks(results: Sequence[ProbeResult]) -> list[Break]:
    """Every break once, from the first probe that hit it."""
    seen: dict[tuple, Break] = {}
    for result in results:
        for item in result.breaks:
            seen.setdefault(item.key(), item)
    return sorted(seen.values(), key=lambda b: (b.path, b.line, b.column, b.kind))


def _display(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _hint(hint: str | None, item: Break) -> str | None:
    if item.config_knob is None:
        return hint
    note = _KNOB_NOTE.format(item.config_knob)
    return f"{hint}; {note}" if hint else note


def _evidence(item: Break) -> dict:
    return {**break_fields(item), "frame_skipped": item.kind == BreakKind.FRAME_SKIPPED}


def _break_finding(item: Break, path: str) -> Finding:
    skipped = item.kind == BreakKind.FRAME_SKIPPED
    rule = all_rules()[FRAME_SKIPPED if skipped else GRAPH_BREAK]
    what = (
        f"Dynamo skipped `{item.function}`: it runs eagerly in full"
        if skipped
        else ("Dynamo broke the graph here")
    )
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=f"{what} ({item.gb_id or 'no GB id'}: {item.gb_type})",
        path=path,
        line=item.line,
        column=item.column,
        end_line=item.line,
        end_column=max(item.end_column, item.column),
        url=item.gb_url or rule.url(),
        hint=_hint(item.hints[0] if item.hints else rule.hint, item),
        origin=Origin.DYNAMIC,
        status=Status.CONFIRMED,
        extra=_evidence(item),
    )


def _probe_finding(result: ProbeResult) -> Finding:
    rule = all_rules()[PROBE_FAILED]
    probe = result.probe
    label = "probe file" if probe.name == "<file>" else f"probe {probe.name}"
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=f"{label} {result.status.value}: {result.error}",
        path=probe.path,
        line=probe.line,
        column=1,
        end_line=probe.line,
        end_column=1,
        url=rule.url(),
        hint=rule.hint,
        origin=Origin.DYNAMIC,
        extra={"probe": probe.key, "probe_status": result.status.value},
    )


def _registration_status(finding: Finding, joined: list[Finding]) -> Finding:
    """A hook registration takes the status of the breaks inside the hook it registers (the
    findings of the same file in the hook's compile scope), with the first confirmed one's
    evidence: the registration line itself never runs under Dynamo."""
    if finding.code != _HOOK_REGISTRATION or finding.origin != Origin.STATIC:
        return finding
    inside = [
        f
        for f in joined
        if f.path == finding.path
        and f.code != _HOOK_REGISTRATION
        and f.origin == Origin.STATIC
        and f.scope in (finding.scope, f"{_REACHED_FROM}{finding.scope}")
    ]
    for status in (Status.CONFIRMED, Status.NOT_REPRODUCED):
        hits = [f for f in inside if f.status == status]
        if hits:
            evidence = {k: v for k, v in hits[0].extra.items() if k not in finding.extra}
            return replace(finding, status=status, extra={**finding.extra, **evidence})
    return finding


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
    for finding in findings:
        if not is_statement_finding(finding):
            joined.append(finding)
            continue
        span = flagged_span(finding)
        lines = range(finding.line, finding.end_line + 1)
        statement = _statement_lines(finding, span.path)
        hits = [b for line in statement for b in by_line.get((span.path, line), [])]
        if hits:
            matched.update(id(b) for b in hits)
            joined.append(
                replace(
                    finding,
                    status=Status.CONFIRMED,
                    hint=_hint(finding.hint, hits[0]),
                    extra={**finding.extra, **_evidence(hits[0])},
                )
            )
        elif span in reached or (
            span not in instrumented and any((span.path, line) in executed for line in lines)
        ):
            joined.append(replace(finding, status=Status.NOT_REPRODUCED))
        else:
            joined.append(replace(finding, status=Status.NOT_REACHED))
    joined = [_registration_status(f, joined) for f in joined]
    displayed = {os.path.realpath(f.path): f.path for f in findings}
    for item in breaks:
        if id(item) in matched:
            continue
        path = displayed.get(item.path) or _display(item.path)
        finding = _break_finding(item, path)
        if allowed(finding.code, path):
            joined.append(finding)
    for result in results:
        if result.status != ProbeStatus.OK and allowed(PROBE_FAILED, result.probe.path):
            joined.append(_probe_finding(result))
    return sorted(joined, key=Finding.sort_key)
