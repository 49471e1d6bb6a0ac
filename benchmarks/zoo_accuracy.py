"""breaklint's static accuracy on the Hugging Face transformers model zoo, against Dynamo.

For every (model type, mode) it writes one probe that builds a tiny model with
`breaklint.hf.build`, runs the real CLI once over the whole installed transformers package with
those probes (so breaks land on transformers' own lines), and scores the JSON report:

    .venv/bin/python benchmarks/zoo_accuracy.py --models gpt2,bert --out /tmp/zoo
    .venv/bin/python benchmarks/zoo_accuracy.py --models all --jobs 2 --out /tmp/zoo

Scores count distinct statements (path:line). Precision: of the lines static findings flag
that a probe ran, the share where Dynamo broke; a second precision leaves out the lines "not
reproduced" inside functions Dynamo skipped in some probe (they ran eagerly, so Dynamo may
never have traced them). Recall: of the lines where Dynamo broke or skipped a frame, the share
a static finding flagged. It prints a summary and writes `results.json` and `report.md` (with
every miss and false positive) to --out; `--rescore --out DIR` scores the run kept there again.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import linecache
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from breaklint import hf  # noqa: E402  (the repository's breaklint, not an installed one)

BREAK_CODES = {"BL900": "graph break", "BL901": "frame skipped"}
_FILE_PROBLEMS = "BL0"  # unreadable or unparsable files: not statements
_NOT_BUILT = "ModelBuildError: "
_EXAMPLES = 5  # model types shown per build-failure reason
RUN_FILE = "run.json"  # the probes and wall time of the last run, for --rescore


@dataclass(frozen=True, slots=True)
class ProbeTarget:
    """One generated probe function and the model it builds."""

    function: str
    model_type: str
    mode: hf.Mode


@dataclass(slots=True)
class Run:
    """What one breaklint run was asked to do and how long it took; --rescore reads it back."""

    command: str
    jobs: int
    probe_timeout_s: float
    wall_s: float
    targets: list[ProbeTarget]


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


@dataclass(slots=True)
class Miss:
    """A line where Dynamo broke or skipped a frame and no static finding said so."""

    where: str
    kind: str
    gb_ids: list[str]
    gb_types: list[str]
    function: str
    source: str
    probes: list[str]  # the first probe that hit each break on the line


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


@dataclass(slots=True)
class ModelRow:
    model_type: str
    mode: str
    status: str  # ok, not built, error, timeout, crashed
    graphs: int
    breaks: int
    frames_skipped: int
    wall_s: float
    note: str = ""


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
    outside_package: int = 0  # breaks attributed to files outside transformers


def probe_targets(model_types: Sequence[str], modes: Sequence[hf.Mode]) -> list[ProbeTarget]:
    targets: list[ProbeTarget] = []
    used: set[str] = set()
    for model_type in model_types:
        for mode in modes:
            identifier = re.sub(r"\W", "_", model_type)
            base = f"probe_{identifier}_{mode}"
            function, suffix = base, 2
            while function in used:  # "xlm-roberta" and "xlm_roberta" would collide
                function, suffix = f"{base}_{suffix}", suffix + 1
            used.add(function)
            targets.append(ProbeTarget(function, model_type, mode))
    return targets


def write_probe_file(path: Path, targets: Sequence[ProbeTarget]) -> None:
    lines = [
        '"""Generated by benchmarks/zoo_accuracy.py: one probe per (model type, mode)."""',
        "",
        "from breaklint.hf import build",
        "",
    ]
    for target in targets:
        lines += [
            "",
            f"def {target.function}():",
            f"    return build({target.model_type!r}, {target.mode!r}).as_probe()",
            "",
        ]
    path.write_text("\n".join(lines), encoding="utf-8")


def transformers_folder() -> Path:
    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("transformers is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def run_breaklint(probe_file: Path, package: Path, options: argparse.Namespace) -> dict[str, Any]:
    """The real CLI, once, over the whole package; its JSON report is kept next to the results."""
    command = [sys.executable, "-m", "breaklint", "--isolated", "--output-format", "json"]
    command += ["--probes", str(probe_file), "--jobs", str(options.jobs)]
    command += ["--probe-timeout", str(options.probe_timeout), "--no-cache", "--quiet"]
    command.append(package.name)
    environment = {**os.environ, "PYTHONPATH": str(REPO)}  # the workers import breaklint.hf
    out = Path(options.out)
    with (out / "breaklint.json").open("w") as stdout, (out / "breaklint.stderr").open("w") as err:
        # Run from the package's parent so reported paths read transformers/models/...
        done = subprocess.run(
            command, cwd=package.parent, stdout=stdout, stderr=err, env=environment
        )
    if done.returncode not in (0, 1):
        tail = (out / "breaklint.stderr").read_text(errors="replace")[-3000:]
        sys.exit(f"breaklint exited {done.returncode}:\n{tail}")
    return json.loads((out / "breaklint.json").read_text())


def source_line(root: Path, where: str) -> str:
    path, _, line = where.rpartition(":")
    return linecache.getline(str(root / path), int(line)).strip()


def _merged_status(statuses: Iterable[str]) -> str:
    statuses = set(statuses)
    for status in ("confirmed", "not-reproduced"):
        if status in statuses:
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


def score(findings: list[dict[str, Any]], package: Path) -> Scores:
    scores = Scores()
    root = package.parent
    inside = f"{package.name}/"
    static: dict[str, list[dict[str, Any]]] = defaultdict(list)
    breaks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    skipped_functions = {
        enclosing_function(root, f"{f['path']}:{f['line']}")
        for f in findings
        if f["path"].startswith(inside) and _skips_frame(f)
    }
    for finding in findings:
        where = f"{finding['path']}:{finding['line']}"
        if finding["origin"] == "dynamic" and finding["code"] in BREAK_CODES:
            if finding["path"].startswith(inside):
                breaks[where].append(finding)
            else:
                scores.outside_package += 1
        elif finding["origin"] == "static" and not finding["code"].startswith(_FILE_PROBLEMS):
            static[where].append(finding)
    by_code: dict[str, LineCounts] = defaultdict(LineCounts)
    confirmed_lines = set()
    for where, flagged in sorted(static.items()):
        status = _merged_status(f["status"] for f in flagged)
        _count(scores.overall, status)
        in_skipped_frame = enclosing_function(root, where) in skipped_functions - {None}
        # A refutation inside a frame Dynamo skipped is one it may never have seen.
        unseen = in_skipped_frame and status == "not-reproduced"
        if not unseen:
            _count(scores.traced, status)
        errors = [f["status"] for f in flagged if f["severity"] == "error"]
        if errors:
            error_status = _merged_status(errors)
            _count(scores.errors, error_status)
            if not (in_skipped_frame and error_status == "not-reproduced"):
                _count(scores.traced_errors, error_status)
        for code in sorted({f["code"] for f in flagged}):
            _count(by_code[code], _merged_status(f["status"] for f in flagged if f["code"] == code))
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
                )
            )
    scores.by_code = dict(sorted(by_code.items()))
    missed = {where: found for where, found in breaks.items() if where not in confirmed_lines}
    scores.recall = Ratio(len(confirmed_lines), len(confirmed_lines) + len(missed))
    for where, found in sorted(missed.items()):
        skipped = any(f["code"] == "BL901" for f in found)
        scores.misses.append(
            Miss(
                where,
                BREAK_CODES["BL901" if skipped else "BL900"],
                sorted({f.get("gb_id") or "-" for f in found}),
                sorted({f.get("gb_type") or "?" for f in found}),
                found[0].get("function") or "?",
                source_line(root, where),
                sorted({_probe_name(f.get("probe")) for f in found}),
            )
        )
    return scores


def _probe_name(key: str | None) -> str:
    return (key or "?").rpartition("::")[2]


def model_rows(probes: list[dict[str, Any]], targets: Sequence[ProbeTarget]) -> list[ModelRow]:
    by_function = {target.function: target for target in targets}
    rows = []
    for probe in probes:
        target = by_function.get(probe["name"])
        if target is None:  # a problem with the probe file itself
            rows.append(ModelRow("?", "?", probe["status"], 0, 0, 0, 0.0, probe["error"] or ""))
            continue
        status, note = probe["status"], probe["error"] or ""
        if status == "error" and note.startswith(_NOT_BUILT):
            status, note = "not built", note.removeprefix(_NOT_BUILT)
        rows.append(
            ModelRow(
                target.model_type,
                target.mode,
                status,
                probe["graphs"],
                probe["breaks"],
                probe["frames_skipped"],
                probe["wall_s"],
                note,
            )
        )
    return rows


def failure_class(reason: str) -> str:
    """A build-failure reason without the model's names and numbers, to group alike failures."""
    text = re.sub(r"^\w+(\.forward\(.*?\)|\(config\))\s*", "", reason)
    text = re.sub(r"'[a-z0-9_-]+'", "'<type>'", text) if "maps" in text else text
    text = re.sub(r"\d+", "N", text)
    return text[:110]


def _percent(ratio: Ratio) -> float | None:
    return round(ratio.value, 4) if ratio.value is not None else None


def results_document(run: Run, scores: Scores, rows: list[ModelRow]) -> dict[str, Any]:
    import torch
    import transformers

    statuses = Counter(row.status for row in rows)
    return {
        "command": run.command,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "jobs": run.jobs,
        "probe_timeout_s": run.probe_timeout_s,
        "wall_s": round(run.wall_s, 1),
        "probes": len(rows),
        "probe_statuses": dict(statuses),
        "precision": {
            "overall": _percent(scores.overall.precision),
            "outside_skipped_frames": _percent(scores.traced.precision),
            "errors": _percent(scores.errors.precision),
            "errors_outside_skipped_frames": _percent(scores.traced_errors.precision),
            "by_code": {code: _percent(c.precision) for code, c in scores.by_code.items()},
        },
        "recall": _percent(scores.recall),
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
        "models": [asdict(row) for row in rows],
    }


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return lines


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def report_markdown(document: dict[str, Any], scores: Scores, rows: list[ModelRow]) -> str:
    lines = [
        "# breaklint on the transformers model zoo",
        "",
        f"`{document['command']}`",
        "",
        f"torch {document['torch']}, transformers {document['transformers']}, "
        f"--jobs {document['jobs']}, --probe-timeout {document['probe_timeout_s']} s, "
        f"{document['probes']} probes in {document['wall_s']} s.",
        "",
        "Probe statuses: "
        + ", ".join(f"{status} {n}" for status, n in sorted(document["probe_statuses"].items())),
        "",
        "## Scores (distinct statements)",
        "",
    ]
    slices = [
        ("all findings", scores.overall),
        ("all, outside frames Dynamo skipped", scores.traced),
        ("errors", scores.errors),
        ("errors, outside frames Dynamo skipped", scores.traced_errors),
    ]
    slices += list(scores.by_code.items())
    lines += _table(
        ("slice", "precision", "confirmed", "not reproduced", "not reached"),
        ((name, c.precision, c.confirmed, c.not_reproduced, c.not_reached) for name, c in slices),
    )
    lines += [
        "",
        f"Recall: {scores.recall} break lines; {len(scores.misses)} missed "
        f"({sum(m.kind == 'frame skipped' for m in scores.misses)} frame skips). "
        f"Breaks attributed outside transformers: {scores.outside_package}.",
        "",
        "## Misses by graph-break type",
        "",
    ]
    by_type = Counter(gb for miss in scores.misses for gb in miss.gb_types)
    lines += _table(("gb_type", "lines"), by_type.most_common())
    lines += ["", "## Misses", ""]
    lines += _table(
        ("line", "kind", "gb", "gb_type", "function", "source", "first probes"),
        (
            (
                m.where,
                m.kind,
                ", ".join(m.gb_ids),
                "; ".join(m.gb_types),
                m.function,
                _code(m.source),
                ", ".join(m.probes),
            )
            for m in scores.misses
        ),
    )
    lines += ["", "## False positives by rule", ""]
    lines += _table(
        ("code", "lines"),
        Counter(code for fp in scores.false_positives for code in fp.codes).most_common(),
    )
    lines += ["", "## False positives", ""]
    lines += [
        "A line marked *skipped* is in a function Dynamo skipped in some probe: it ran eagerly "
        "there, so Dynamo may never have traced it.",
        "",
    ]
    lines += _table(
        ("line", "codes", "message", "source", "frame"),
        (
            (
                fp.where,
                ", ".join(fp.codes),
                " / ".join(fp.messages),
                _code(fp.source),
                "skipped" if fp.in_skipped_frame else "",
            )
            for fp in scores.false_positives
        ),
    )
    failed = [row for row in rows if row.status == "not built"]
    lines += ["", f"## Models not built ({len(failed)})", ""]
    grouped: dict[str, list[ModelRow]] = defaultdict(list)
    for row in failed:
        grouped[failure_class(row.note)].append(row)
    lines += _table(
        ("reason", "probes", "examples"),
        (
            (
                _code(reason),
                len(members),
                ", ".join(f"{r.model_type}/{r.mode}" for r in members[:_EXAMPLES]),
            )
            for reason, members in sorted(grouped.items(), key=lambda item: -len(item[1]))
        ),
    )
    lines += ["", "## Models", ""]
    lines += _table(
        ("type", "mode", "status", "graphs", "breaks", "frames skipped", "wall s", "note"),
        (
            (r.model_type, r.mode, r.status, r.graphs, r.breaks, r.frames_skipped, r.wall_s, r.note)
            for r in rows
        ),
    )
    return "\n".join(lines) + "\n"


def summary_text(document: dict[str, Any], scores: Scores, rows: list[ModelRow]) -> str:
    walls = [row.wall_s for row in rows if row.status != "not built"]
    timing = (
        f"probe wall time: median {statistics.median(walls):.1f} s, max {max(walls):.1f} s"
        if walls
        else "no probe ran"
    )
    statuses = ", ".join(f"{s} {n}" for s, n in sorted(document["probe_statuses"].items()))
    misses = Counter(gb for miss in scores.misses for gb in miss.gb_types).most_common(5)
    fps = Counter(code for fp in scores.false_positives for code in fp.codes).most_common(5)
    return "\n".join(
        [
            f"{document['probes']} probes in {document['wall_s']} s ({statuses}); {timing}",
            f"precision, all findings: {scores.overall.precision}",
            f"  outside skipped frames: {scores.traced.precision}",
            f"precision, errors:       {scores.errors.precision}",
            f"  outside skipped frames: {scores.traced_errors.precision}",
            f"recall:                  {scores.recall}",
            "precision by rule (rules a probe reached): "
            + ", ".join(
                f"{code} {c.precision}" for code, c in scores.by_code.items() if c.precision.total
            ),
            f"top misses: {', '.join(f'{gb} ({n})' for gb, n in misses) or 'none'}",
            f"top false positives: {', '.join(f'{code} ({n})' for code, n in fps) or 'none'}",
        ]
    )


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="all", help="comma-separated model types, or all")
    parser.add_argument("--modes", default="eval,train", help="comma-separated: eval, train")
    parser.add_argument("--jobs", type=int, default=2, help="breaklint's worker processes")
    parser.add_argument("--probe-timeout", type=float, default=120, help="seconds per probe")
    parser.add_argument("--limit", type=int, help="only the first N model types")
    parser.add_argument("--out", required=True, help="folder for results.json and report.md")
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="score the breaklint run already in --out again instead of running breaklint",
    )
    options = parser.parse_args(argv)
    modes = [mode.strip() for mode in options.modes.split(",") if mode.strip()]
    if not modes or set(modes) - set(hf.MODES):
        parser.error(f"--modes takes {', '.join(hf.MODES)}")
    options.modes = modes
    return options


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_arguments(argv)
    out = Path(options.out).resolve()
    options.out = str(out)
    package = transformers_folder()
    if options.rescore:
        saved = json.loads((out / RUN_FILE).read_text())
        targets = [ProbeTarget(**target) for target in saved.pop("targets")]
        run = Run(**saved, targets=targets)
        report = json.loads((out / "breaklint.json").read_text())
    else:
        targets = probe_targets(selected_types(options), options.modes)
        out.mkdir(parents=True, exist_ok=True)
        probe_file = out / "zoo_probes.py"
        write_probe_file(probe_file, targets)
        print(f"{len(targets)} probes over {package}; breaklint's report goes to {out}", flush=True)
        started = time.perf_counter()
        report = run_breaklint(probe_file, package, options)
        wall_s = time.perf_counter() - started
        command = " ".join(sys.argv)
        run = Run(command, options.jobs, options.probe_timeout, wall_s, targets)
        (out / RUN_FILE).write_text(json.dumps(asdict(run)) + "\n", encoding="utf-8")
    scores = score(report["findings"], package)
    rows = model_rows(report.get("probes", []), run.targets)
    document = results_document(run, scores, rows)
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    (out / "report.md").write_text(report_markdown(document, scores, rows), encoding="utf-8")
    print(summary_text(document, scores, rows))
    print(f"wrote {out / 'results.json'} and {out / 'report.md'}")


def selected_types(options: argparse.Namespace) -> list[str]:
    known = hf.model_types()
    if options.models == "all":
        model_types = known
    else:
        model_types = [name.strip() for name in options.models.split(",") if name.strip()]
        unknown = sorted(set(model_types) - set(known))
        if unknown:
            sys.exit(f"unknown model types: {', '.join(unknown)}")
    return model_types[: options.limit] if options.limit else model_types


if __name__ == "__main__":
    main()
