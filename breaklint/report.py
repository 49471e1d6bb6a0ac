"""Reporters: findings in, text out. They know findings, never rules."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

from breaklint import __version__
from breaklint.findings import Finding

FORMATS = ("full", "concise", "json", "github")


@dataclass(frozen=True, slots=True)
class Summary:
    files_checked: int
    elapsed_s: float
    files_skipped: int = 0

    def to_dict(self, findings: Sequence[Finding]) -> dict:
        severities = Counter(f.severity.value for f in findings)
        return {
            "files_checked": self.files_checked,
            "files_skipped": self.files_skipped,
            "findings": len(findings),
            "by_severity": dict(sorted(severities.items())),
            "by_code": dict(sorted(Counter(f.code for f in findings).items())),
            "elapsed_s": round(self.elapsed_s, 3),
        }


def summary_line(findings: Sequence[Finding], summary: Summary) -> str:
    files = f"{summary.files_checked} file{'s' if summary.files_checked != 1 else ''}"
    elapsed = f"{summary.elapsed_s:.2f}s"
    if not findings:
        return f"All checks passed ({files} in {elapsed})."
    severities = Counter(f.severity.value for f in findings)
    counts = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(severities.items()))
    noun = "finding" if len(findings) == 1 else "findings"
    return f"Found {len(findings)} {noun} ({counts}) in {files} in {elapsed}."


def write_concise(findings: Sequence[Finding], out: IO[str], summary: Summary) -> None:
    for f in findings:
        out.write(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}\n")


def write_json(findings: Sequence[Finding], out: IO[str], summary: Summary) -> None:
    document = {
        "version": __version__,
        "findings": [f.to_dict() for f in findings],
        "summary": summary.to_dict(findings),
    }
    json.dump(document, out, indent=2)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def write_github(findings: Sequence[Finding], out: IO[str], summary: Summary) -> None:
    # GitHub shows only the first annotations of each level: the most severe go first.
    for f in sorted(findings, key=lambda f: (_SEVERITY_RANK[f.severity.value], f.sort_key())):
        properties = (
            f"file={_escape_property(f.path)},line={f.line},col={f.column},"
            f"endLine={f.end_line},endColumn={f.end_column},"
            f"title={_escape_property(f'{f.code} {f.name}')}"
        )
        out.write(f"::{_GITHUB_LEVEL[f.severity.value]} {properties}::{_escape_data(f.message)}\n")


def write_full(findings: Sequence[Finding], out: IO[str], summary: Summary) -> None:
    from breaklint.render import write_rich  # rich is imported only for this format

    write_rich(findings, out)


WRITERS: dict[str, Callable[[Sequence[Finding], IO[str], Summary], None]] = {
    "full": write_full,
    "concise": write_concise,
    "json": write_json,
    "github": write_github,
}
