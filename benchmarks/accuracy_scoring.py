"""Scoring breaklint's static findings against the breaks Dynamo took, shared by the accuracy
benchmarks (`zoo_accuracy.py`, `library_accuracy.py`). Plain Python: it reads breaklint's JSON
report and the linted sources, never torch.

Scores count distinct statements (path:line). Precision: of the lines static findings flag that
a probe ran, the share where Dynamo broke; a second precision leaves out the lines "not
reproduced" inside functions Dynamo skipped in some probe (they ran eagerly, so Dynamo may never
have traced them). Recall: of the lines where Dynamo broke or skipped a frame, the share a
static finding that counts (an error or a warning) flagged; a line where only an info finding
(or a left-out rule) stands and Dynamo broke is a miss.
"""

from __future__ import annotations

import ast
import linecache
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

BREAK_CODES = {"BL900": "graph break", "BL901": "frame skipped"}
BREAK_KINDS = ("graph-break", "frame-skipped")  # the `kind` of a finding Dynamo's break confirms
FILE_PROBLEMS = "BL0"  # unreadable or unparsable files: not statements
ALL_SEVERITIES = ("error", "warning", "info")


@dataclass(slots=True)
class Ratio:
    hits: int
    total: int

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __str__(self) -> str:
        value = self.value
        return f"{value:.1%} ({self.hits}/{self.total})" if value is not None else "n/a (0/0)"


@dataclass(slots=True)
class LineCounts:
    """Distinct flagged lines of one slice of the static findings, by what Dynamo did there."""

    confirmed: int = 0
    not_reproduced: int = 0
    not_reached: int = 0

    @property
    def precision(self) -> Ratio:
        return Ratio(self.confirmed, self.confirmed + self.not_reproduced)

    def add(self, other: LineCounts) -> None:
        self.confirmed += other.confirmed
        self.not_reproduced += other.not_reproduced
        self.not_reached += other.not_reached


@dataclass(slots=True)
class Miss:
    """A line where Dynamo broke or skipped a frame and no static finding that counts said so."""

    where: str
    kind: str
    gb_ids: list[str]
    gb_types: list[str]
    function: str
    source: str
    probes: list[str]  # the first probe that hit each break on the line
    reasons: list[str] = field(default_factory=list)  # Dynamo's own words, one per break kind


@dataclass(slots=True)
class FalsePositive:
    """A line a static finding flags, that a probe ran, where Dynamo did not break."""

    where: str
    codes: list[str]
    messages: list[str]
    source: str
    # The line's function is one Dynamo skipped in some probe: the line ran eagerly, so Dynamo
    # may never have traced it, and "not reproduced" proves less there.
    in_skipped_frame: bool = False
    severities: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Scores:
    overall: LineCounts = field(default_factory=LineCounts)
    # Without the lines "not reproduced" in functions Dynamo skipped somewhere.
    traced: LineCounts = field(default_factory=LineCounts)
    errors: LineCounts = field(default_factory=LineCounts)
    traced_errors: LineCounts = field(default_factory=LineCounts)
    by_code: dict[str, LineCounts] = field(default_factory=dict)
    recall: Ratio = field(default_factory=lambda: Ratio(0, 0))
    misses: list[Miss] = field(default_factory=list)
    false_positives: list[FalsePositive] = field(default_factory=list)
    outside_package: int = 0  # breaks attributed to files outside the scored packages


def source_line(root: Path, where: str) -> str:
    path, _, line = where.rpartition(":")
    return linecache.getline(str(root / path), int(line)).strip()


def merged_status(statuses: Iterable[str]) -> str:
    """One line's status from its findings': confirmed wins, then not reproduced."""
    present = set(statuses)
    for status in ("confirmed", "not-reproduced"):
        if status in present:
            return status
    return "not-reached"


def _count(counts: LineCounts, status: str) -> None:
    if status == "confirmed":
        counts.confirmed += 1
    elif status == "not-reproduced":
        counts.not_reproduced += 1
    else:
        counts.not_reached += 1


@cache
def _function_spans(path: Path) -> tuple[tuple[int, int], ...]:
    """(first line, last line) of every function in the file, innermost last when nested."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return ()
    spans = [
        (node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]
    return tuple(sorted(spans, key=lambda span: (span[0], -span[1])))


def enclosing_function(root: Path, where: str) -> tuple[str, int, int] | None:
    """The innermost function around `path:line`, as (path, first line, last line)."""
    path, _, line = where.rpartition(":")
    number = int(line)
    inside = [span for span in _function_spans(root / path) if span[0] <= number <= span[1]]
    return (path, *inside[-1]) if inside else None


def _skips_frame(finding: dict[str, Any]) -> bool:
    return finding["code"] == "BL901" or bool(finding.get("frame_skipped"))


def _probe_name(key: str | None) -> str:
    return (key or "?").rpartition("::")[2]


def _inside(path: str, packages: Collection[str]) -> bool:
    return path.split("/", 1)[0] in packages


def score(
    findings: list[dict[str, Any]],
    root: Path,
    packages: Collection[str],
    severities: Collection[str] = ALL_SEVERITIES,
    left_out_codes: Collection[str] = (),
) -> Scores:
    """Scores the findings of one breaklint JSON report, run from `root` over `packages` (top
    folders under it). Only static findings of `severities` count, none of `left_out_codes`."""
    scores = Scores()
    static: dict[str, list[dict[str, Any]]] = defaultdict(list)
    breaks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    # Where Dynamo broke, a static finding that does not count (info, a left-out code) takes
    # the break in the join, so no BL900 reports it: it is a break all the same.
    uncounted_breaks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    skipped_functions = {
        enclosing_function(root, f"{f['path']}:{f['line']}")
        for f in findings
        if _inside(f["path"], packages) and _skips_frame(f)
    }
    for finding in findings:
        where = f"{finding['path']}:{finding['line']}"
        if finding["origin"] == "dynamic" and finding["code"] in BREAK_CODES:
            if _inside(finding["path"], packages):
                breaks[where].append(finding)
            else:
                scores.outside_package += 1
        elif (
            finding["origin"] == "static"
            and not finding["code"].startswith(FILE_PROBLEMS)
            and finding["code"] not in left_out_codes
            and finding["severity"] in severities
        ):
            static[where].append(finding)
        elif (
            finding["origin"] == "static"
            and finding.get("kind") in BREAK_KINDS  # not a recompile
            and finding["status"] == "confirmed"
            and _inside(finding["path"], packages)
        ):
            uncounted_breaks[where].append(finding)
    by_code: dict[str, LineCounts] = defaultdict(LineCounts)
    confirmed_lines = set()
    for where, flagged in sorted(static.items()):
        status = merged_status(f["status"] for f in flagged)
        _count(scores.overall, status)
        in_skipped_frame = enclosing_function(root, where) in skipped_functions - {None}
        # A refutation inside a frame Dynamo skipped is one it may never have seen.
        if not (in_skipped_frame and status == "not-reproduced"):
            _count(scores.traced, status)
        errors = [f["status"] for f in flagged if f["severity"] == "error"]
        if errors:
            error_status = merged_status(errors)
            _count(scores.errors, error_status)
            if not (in_skipped_frame and error_status == "not-reproduced"):
                _count(scores.traced_errors, error_status)
        for code in sorted({f["code"] for f in flagged}):
            _count(by_code[code], merged_status(f["status"] for f in flagged if f["code"] == code))
        if status == "confirmed":
            confirmed_lines.add(where)
        elif status == "not-reproduced":
            scores.false_positives.append(
                FalsePositive(
                    where,
                    sorted({f["code"] for f in flagged}),
                    [f["message"] for f in flagged],
                    source_line(root, where),
                    in_skipped_frame,
                    sorted({f["severity"] for f in flagged}),
                )
            )
    scores.by_code = dict(sorted(by_code.items()))
    missed = {
        where: found
        for where, found in {**uncounted_breaks, **breaks}.items()
        if where not in confirmed_lines
    }
    scores.recall = Ratio(len(confirmed_lines), len(confirmed_lines) + len(missed))
    for where, found in sorted(missed.items()):
        skipped = any(f["code"] == "BL901" or f.get("kind") == BREAK_KINDS[1] for f in found)
        scores.misses.append(
            Miss(
                where,
                BREAK_CODES["BL901" if skipped else "BL900"],
                sorted({f.get("gb_id") or "-" for f in found}),
                sorted({f.get("gb_type") or "?" for f in found}),
                found[0].get("function") or "?",
                source_line(root, where),
                sorted({_probe_name(f.get("probe")) for f in found}),
                sorted({_reason(f) for f in found}),
            )
        )
    return scores


def _reason(finding: dict[str, Any]) -> str:
    """Dynamo's explanation of a break, on one line: the first line of its `reason` names only
    the bytecode it was tracing."""
    text = finding.get("explanation") or finding.get("reason") or finding["message"]
    return " ".join(text.split())[:600]


def percent(ratio: Ratio) -> float | None:
    return round(ratio.value, 4) if ratio.value is not None else None


def scores_document(scores: Scores) -> dict[str, Any]:
    """The scores as the JSON fields both benchmarks write into results.json."""
    return {
        "precision": {
            "overall": percent(scores.overall.precision),
            "outside_skipped_frames": percent(scores.traced.precision),
            "errors": percent(scores.errors.precision),
            "errors_outside_skipped_frames": percent(scores.traced_errors.precision),
            "by_code": {code: percent(c.precision) for code, c in scores.by_code.items()},
        },
        "recall": percent(scores.recall),
        "lines": {
            "overall": asdict(scores.overall),
            "outside_skipped_frames": asdict(scores.traced),
            "errors": asdict(scores.errors),
            "errors_outside_skipped_frames": asdict(scores.traced_errors),
            "by_code": {code: asdict(counts) for code, counts in scores.by_code.items()},
            "recall": asdict(scores.recall),
            "breaks_outside_package": scores.outside_package,
        },
        "misses": [asdict(miss) for miss in scores.misses],
        "false_positives": [asdict(fp) for fp in scores.false_positives],
    }


def table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    """A markdown table."""

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return lines


def code_span(text: str) -> str:
    return f"`{text}`" if text else ""


def scores_markdown(scores: Scores, package_words: str) -> list[str]:
    """The scores, misses and false positives sections of a report."""
    lines = ["## Scores (distinct statements)", ""]
    slices = [
        ("all findings", scores.overall),
        ("all, outside frames Dynamo skipped", scores.traced),
        ("errors", scores.errors),
        ("errors, outside frames Dynamo skipped", scores.traced_errors),
    ]
    slices += list(scores.by_code.items())
    lines += table(
        ("slice", "precision", "confirmed", "not reproduced", "not reached"),
        ((name, c.precision, c.confirmed, c.not_reproduced, c.not_reached) for name, c in slices),
    )
    lines += [
        "",
        f"Recall: {scores.recall} break lines; {len(scores.misses)} missed "
        f"({sum(m.kind == 'frame skipped' for m in scores.misses)} frame skips). "
        f"Breaks attributed outside {package_words}: {scores.outside_package}.",
        "",
        "## Misses by graph-break type",
        "",
    ]
    by_type = Counter(gb for miss in scores.misses for gb in miss.gb_types)
    lines += table(("gb_type", "lines"), by_type.most_common())
    lines += ["", "## Misses", ""]
    lines += table(
        ("line", "kind", "gb", "gb_type", "function", "source", "first probes"),
        (
            (
                m.where,
                m.kind,
                ", ".join(m.gb_ids),
                "; ".join(m.gb_types),
                m.function,
                code_span(m.source),
                ", ".join(m.probes),
            )
            for m in scores.misses
        ),
    )
    lines += ["", "## False positives by rule", ""]
    lines += table(
        ("code", "lines"),
        Counter(code for fp in scores.false_positives for code in fp.codes).most_common(),
    )
    lines += ["", "## False positives", ""]
    lines += [
        "A line marked *skipped* is in a function Dynamo skipped in some probe: it ran eagerly "
        "there, so Dynamo may never have traced it.",
        "",
    ]
    lines += table(
        ("line", "codes", "message", "source", "frame"),
        (
            (
                fp.where,
                ", ".join(fp.codes),
                " / ".join(fp.messages),
                code_span(fp.source),
                "skipped" if fp.in_skipped_frame else "",
            )
            for fp in scores.false_positives
        ),
    )
    return lines
