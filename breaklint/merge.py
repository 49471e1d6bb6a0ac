"""`--shard I/N` reports and `breaklint merge`: a sweep split across machines, put back together.

A shard's JSON report carries, besides its own findings, a `shard` object with what the join
of the whole run needs: every probe found (in the order a whole run reports them), the static
findings before any probe was joined with them, each probe result in full, and which dynamic
findings the selection allows where. `merge` checks that the reports are the N shards of one
run, puts the results back in that order and joins them once, as the whole run would: the
merged report is the whole run's JSON report, but for the times (`summary.elapsed_s`, the
longest shard's; each probe's `wall_s` and `variants_s`, as its shard measured them).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from breaklint.cache import as_type
from breaklint.codes import (
    CUDAGRAPHS_SKIPPED,
    DYNAMO_FRAME_SKIPPED,
    DYNAMO_GRAPH_BREAK,
    DYNAMO_RECOMPILES,
    PROBE_FAILED,
)
from breaklint.findings import Finding
from breaklint.source import display_path

SHARD_FORMAT = 1
_DYNAMIC_CODES = (
    DYNAMO_GRAPH_BREAK,
    DYNAMO_FRAME_SKIPPED,
    DYNAMO_RECOMPILES,
    CUDAGRAPHS_SKIPPED,
    PROBE_FAILED,
)


class MergeError(Exception):
    """Reports that are not the shards of one run; the message says how."""


def plain(value: Any) -> Any:
    """A dataclass tree as JSON data: enums by value, tuples as lists, sets as sorted lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=json.dumps)
    return value


def shard_section(
    shard: Any,
    static: Sequence[Finding],
    results: Sequence[Any],
    order: Sequence[str],
    files: Sequence[str],
    allowed: Any,
) -> dict[str, Any]:
    """The `shard` object of a shard's JSON report (`shard` a dynamic.shards.Shard, `results`
    its ProbeResults, `allowed(code, path)` the selection)."""
    places = {*files, *(display_path(os.path.realpath(path)) for path in files)}
    places |= {result.probe.path for result in results}
    return {
        "format": SHARD_FORMAT,
        "index": shard.index,
        "count": shard.count,
        "order": list(order),
        "static": plain(list(static)),
        "results": plain(list(results)),
        "allowed": {
            place: [code for code in _DYNAMIC_CODES if allowed(code, place)]
            for place in sorted(places)
        },
    }


@dataclass(frozen=True, slots=True)
class _Report:
    path: str
    document: dict[str, Any]

    @property
    def shard(self) -> dict[str, Any]:
        section = self.document.get("shard")
        shapes = {"index": int, "count": int, "order": list, "static": list, "results": list}
        if (
            not isinstance(section, dict)
            or section.get("format") != SHARD_FORMAT
            or not isinstance(section.get("allowed"), dict)
            or any(type(section.get(key)) is not kind for key, kind in shapes.items())
        ):
            raise MergeError(f"{self.path}: not the JSON report of a --shard run")
        return section


def _load(path: str) -> _Report:
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as problem:
        raise MergeError(f"{path}: cannot read it as JSON: {problem}") from None
    if not isinstance(document, dict):
        raise MergeError(f"{path}: not a breaklint JSON report")
    return _Report(path, document)


def _same_probe_file(reports: list[_Report]) -> list[_Report]:
    """The reports with the probe file each `--hf` shard generated (a temporary file of its
    own) named as the first shard's, so that their probes have the same keys."""
    first = reports[0].shard.get("hf", {}).get("probe_file")
    same = [reports[0]]
    for report in reports[1:]:
        own = report.shard.get("hf", {}).get("probe_file")
        if isinstance(first, str) and isinstance(own, str) and own != first:
            text = json.dumps(report.document).replace(
                json.dumps(own)[1:-1], json.dumps(first)[1:-1]
            )
            report = _Report(report.path, json.loads(text))
        same.append(report)
    return same


def merge(paths: Sequence[str], out: IO[str]) -> list[Finding]:
    """Write the whole run's JSON report from its shards' reports; its findings."""
    from breaklint.dynamic.model import ProbeResult
    from breaklint.dynamic.phase import joined
    from breaklint.report import OutputOptions, Summary, write_json

    reports = _same_probe_file([_load(path) for path in paths])
    first = reports[0].shard
    count = first["count"]
    indexes = sorted(report.shard["index"] for report in reports)
    if indexes != list(range(1, count + 1)):
        given = ", ".join(f"{i}/{count}" for i in indexes)
        raise MergeError(
            f"the reports are shards {given}: merge needs each of 1/{count} to {count}/{count} once"
        )
    for report in reports[1:]:
        for part in ("count", "order", "static", "allowed"):
            if report.shard[part] != first[part]:
                raise MergeError(
                    f"{report.path}: another run than {reports[0].path}'s (its {part} differ)"
                )
    try:
        static = as_type(list[Finding], first["static"])
        by_key: dict[str, Any] = {}
        for report in reports:
            for stored in report.shard["results"]:
                result = as_type(ProbeResult, stored)
                by_key.setdefault(result.probe.key, result)
    except (TypeError, ValueError, KeyError) as problem:
        raise MergeError(f"a shard's results are not breaklint's: {problem}") from None
    order = first["order"]
    missing = [key for key in order if key not in by_key]
    if missing:
        raise MergeError(f"no shard ran {missing[0]}")
    # What a whole run reports first: the probe files that could not be probed at all.
    ordered = frozenset(order)
    results = [r for key, r in by_key.items() if key not in ordered]
    results += [by_key[key] for key in order]
    allowed = first["allowed"]
    findings = joined(static, results, lambda code, path: code in allowed.get(path, ()))
    if "hf" in first:  # a --hf run names probes after models, as the whole run did
        from breaklint.hf_models import HFRun

        try:
            models = HFRun.from_json(first["hf"])
        except (TypeError, ValueError, KeyError) as problem:
            raise MergeError(f"a shard's --hf models are not breaklint's: {problem}") from None
        results, findings = models.reported(results, findings)
    if any(f.fix for f in findings):  # as a JSON report carries them (libcst, only then)
        from breaklint.fixer import with_edits

        findings = with_edits(findings, {})
    summaries = [report.document.get("summary", {}) for report in reports]
    summary = Summary(
        files_checked=summaries[0].get("files_checked", 0),
        elapsed_s=max(float(s.get("elapsed_s", 0.0)) for s in summaries),
        files_skipped=summaries[0].get("files_skipped", 0),
        probes=results,
    )
    write_json(findings, out, summary, OutputOptions())
    return findings


def merge_command(paths: Sequence[str], output_file: Path | None) -> int:
    """`breaklint merge REPORT.json...`: 0 without findings, 1 with, 2 when the reports are
    not the shards of one run."""
    import sys

    from breaklint.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, error
    from breaklint.findings import Status

    try:
        if output_file is None:
            findings = merge(paths, sys.stdout)
        else:
            with open(output_file, "w", encoding="utf-8") as out:
                findings = merge(paths, out)
    except MergeError as problem:
        error(str(problem))
        return EXIT_ERROR
    except OSError as problem:
        error(f"cannot write '{output_file}': {problem.strerror or problem}")
        return EXIT_ERROR
    shown = [f for f in findings if f.status is not Status.NOT_REPRODUCED]
    return EXIT_FINDINGS if shown else EXIT_CLEAN
