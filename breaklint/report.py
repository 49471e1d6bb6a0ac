"""Reporters: findings in, text out. They know findings, never rules."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from breaklint import DOCS_URL, __version__
from breaklint.findings import Finding, Range

FORMATS = ("full", "concise", "json", "github", "sarif", "junit")
# Formats that give each fix's text edits: writing them runs the fix engine (libcst).
CARRIES_EDITS = frozenset({"json", "sarif"})


@dataclass(frozen=True, slots=True)
class Summary:
    files_checked: int
    elapsed_s: float
    files_skipped: int = 0
    probes: Sequence[Any] | None = None  # breaklint.dynamic.model.ProbeResult, if probes ran
    files: Sequence[str] = ()  # the files linted, as the findings name them
    shard: Mapping[str, Any] | None = None  # a --shard run's data for `breaklint merge` (JSON)

    def to_json(self, findings: Sequence[Finding]) -> dict[str, Any]:
        severities = Counter(f.severity.value for f in findings)
        return {
            "files_checked": self.files_checked,
            "files_skipped": self.files_skipped,
            "findings": len(findings),
            "by_severity": dict(sorted(severities.items())),
            "by_code": dict(sorted(Counter(f.code for f in findings).items())),
            "elapsed_s": round(self.elapsed_s, 3),
            "statuses": dict(sorted(Counter(f.status.value for f in findings).items())),
        }


@dataclass(frozen=True, slots=True)
class ReportTarget:
    """Where one report goes: the main one (stdout when `path` is None) or `--report
    FORMAT:PATH`."""

    format: str
    path: Path | None


@dataclass(frozen=True, slots=True)
class OutputOptions:
    """What the user asked to see; formats that have no use for an option ignore it."""

    show_bytecode: bool = False  # the `dis` listing at each break (full format)


def summary_line(findings: Sequence[Finding], summary: Summary) -> str:
    files = f"{summary.files_checked} file{'s' if summary.files_checked != 1 else ''}"
    elapsed = f"{summary.elapsed_s:.2f}s"
    if not findings:
        return f"All checks passed ({files} in {elapsed})."
    severities = Counter(f.severity.value for f in findings)
    counts = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(severities.items()))
    noun = "finding" if len(findings) == 1 else "findings"
    return f"Found {len(findings)} {noun} ({counts}) in {files} in {elapsed}."


def concise_line(f: Finding) -> str:
    """`path:line:col: CODE [severity] message`: the code stays where linters put it, and the
    severity, which codes do not tell apart, comes next for problem matchers."""
    return f"{f.path}:{f.line}:{f.column}: {f.code} [{f.severity.value}] {f.message}"


def write_concise(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    for f in findings:
        out.write(concise_line(f) + "\n")


def write_json(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    document = {
        "version": __version__,
        "findings": [f.to_json() for f in findings],
        "summary": summary.to_json(findings),
    }
    if summary.probes is not None:
        document["probes"] = [probe.to_json() for probe in summary.probes]
    if summary.shard is not None:
        document["shard"] = summary.shard
    json.dump(document, out, indent=2)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def write_github(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    # GitHub shows only the first annotations of each level: the most severe go first.
    for f in sorted(findings, key=lambda f: (_SEVERITY_RANK[f.severity.value], f.sort_key())):
        properties = (
            f"file={_escape_property(f.path)},line={f.line},col={f.column},"
            f"endLine={f.end_line},endColumn={f.end_column},"
            f"title={_escape_property(f'{f.code} {f.name}')}"
        )
        out.write(f"::{_GITHUB_LEVEL[f.severity.value]} {properties}::{_escape_data(f.message)}\n")


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _sarif_artifact(path: str) -> dict[str, str]:
    where = Path(path)
    if where.is_absolute():
        return {"uri": where.as_uri()}
    return {"uri": where.as_posix(), "uriBaseId": "%SRCROOT%"}


def _sarif_region(where: Range) -> dict[str, int]:
    return {
        "startLine": where.line,
        "startColumn": where.column,
        "endLine": where.end_line,
        "endColumn": where.end_column,
    }


def _sarif_location(f: Finding) -> dict[str, Any]:
    region = _sarif_region(f.range)
    return {"physicalLocation": {"artifactLocation": _sarif_artifact(f.path), "region": region}}


def _sarif_fixes(f: Finding) -> list[dict[str, Any]]:
    if f.fix is None or not f.fix.edits:
        return []
    replacements = [
        {
            "deletedRegion": _sarif_region(e),
            "insertedContent": {"text": e.content},
        }
        for e in f.fix.edits
    ]
    change = {"artifactLocation": _sarif_artifact(f.path), "replacements": replacements}
    description = f"{f.fix.message} ({f.fix.applicability} fix)"
    return [{"description": {"text": description}, "artifactChanges": [change]}]


def write_sarif(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    """SARIF 2.1.0, what GitHub code scanning ingests; rules are those the findings name."""
    rules: dict[str, dict[str, Any]] = {}
    for f in findings:
        rules.setdefault(
            f.code,
            {
                "id": f.code,
                "name": f.name,
                "shortDescription": {"text": f.name.replace("-", " ")},
                "helpUri": f.url,
                "defaultConfiguration": {"level": _SARIF_LEVEL[f.severity.value]},
            },
        )
    index = {code: position for position, code in enumerate(rules)}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity.value],
            "message": {"text": f.message + (f"\nhelp: {f.hint}" if f.hint else "")},
            "locations": [_sarif_location(f)],
            "properties": {
                "origin": f.origin.value,
                "status": f.status.value,
                "scope": None if f.scope is None else f.scope.label(),
            },
        }
        | ({"fixes": fixes} if (fixes := _sarif_fixes(f)) else {})
        for f in findings
    ]
    driver = {
        "name": "breaklint",
        "version": __version__,
        "informationUri": DOCS_URL,
        "rules": list(rules.values()),
    }
    run: dict[str, Any] = {"tool": {"driver": driver}, "results": results}
    if summary.probes is not None:
        # What each probe compiled: recompiles are no finding unless a guard failed on
        # every value, so code scanning gets them as run properties.
        run["properties"] = {"probes": [probe.to_json() for probe in summary.probes]}
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    json.dump(document, out, indent=2)
    out.write("\n")


def write_junit(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    """JUnit XML: one test case per linted file, one failure per finding (warnings too, their
    severity in the text), so CI shows clean files as passing tests."""
    from xml.etree import ElementTree

    by_file: dict[str, list[Finding]] = {path: [] for path in summary.files}
    for f in findings:
        by_file.setdefault(f.path, []).append(f)
    counts = {
        "tests": str(len(by_file)),
        "failures": str(sum(1 for found in by_file.values() if found)),
        "errors": "0",
        "skipped": "0",
        "time": f"{summary.elapsed_s:.3f}",
    }
    suites = ElementTree.Element("testsuites", {"name": "breaklint", **counts})
    suite = ElementTree.SubElement(suites, "testsuite", {"name": "breaklint", **counts})
    for path in sorted(by_file):
        case = ElementTree.SubElement(
            suite, "testcase", {"classname": "breaklint", "name": path, "file": path, "time": "0"}
        )
        for f in by_file[path]:
            failure = ElementTree.SubElement(
                case, "failure", {"type": f.code, "message": concise_line(f)}
            )
            details = [concise_line(f), f"help: {f.hint}" if f.hint else "", f"docs: {f.url}"]
            failure.text = "\n".join(line for line in details if line)
    ElementTree.indent(suites)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ElementTree.tostring(suites, encoding="unicode"))
    out.write("\n")


def write_full(
    findings: Sequence[Finding], out: IO[str], summary: Summary, options: OutputOptions
) -> None:
    if not findings and not summary.probes:
        return  # nothing to write: a clean file (pre-commit's common case) imports no renderer
    from breaklint.render import write_findings  # rich is imported only to colour a terminal

    write_findings(findings, out, summary.probes or (), options.show_bytecode)


Writer = Callable[[Sequence[Finding], IO[str], Summary, OutputOptions], None]
WRITERS: dict[str, Writer] = {
    "full": write_full,
    "concise": write_concise,
    "json": write_json,
    "github": write_github,
    "sarif": write_sarif,
    "junit": write_junit,
}
