"""The library benchmark's scoring (benchmarks/library_accuracy.py, accuracy_scoring.py) on a
fabricated breaklint report over a fabricated package: no torch, no library, no probe runs."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

from breaklint.probe_roots import probe_roots

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str) -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))  # library_accuracy imports its sibling
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


library_accuracy = _load("library_accuracy")
scoring = _load("accuracy_scoring")

SOURCE = textwrap.dedent(
    """\
    def forward(x, flag):
        if x.sum() > 0:
            print(x)
        y = x.item()
        return y


    def helper(x):
        return x.tolist()


    def skipped(x):
        z = x.numpy()
        return z.mean()
    """
)


def _static(line: int, code: str, severity: str, status: str, path: str = "pkg/mod.py") -> dict:
    return {
        "path": path,
        "line": line,
        "code": code,
        "severity": severity,
        "status": status,
        "origin": "static",
        "message": f"{code} message",
    }


def _break(line: int, code: str = "BL900", path: str = "pkg/mod.py") -> dict[str, Any]:
    return {
        "path": path,
        "line": line,
        "code": code,
        "severity": "error",
        "status": "unverified",
        "origin": "dynamic",
        "message": f"Dynamo broke at {line}",
        "reason": "Encountered graph break when attempting to trace CALL\n\nmore text",
        "explanation": "No tracing of `Tensor.item()`\n  with   the default config.",
        "gb_id": "GB0124",
        "gb_type": "Unsupported Tensor.item() call",
        "function": "forward",
        "probe": "probes.py::probe_forward_eval",
    }


FINDINGS = [
    _static(2, "BL201", "error", "confirmed"),  # a hit
    _break(2),
    _static(3, "BL401", "warning", "not-reproduced"),  # a false positive, a warning
    _break(4),  # a miss
    _static(9, "BL103", "error", "not-reached"),  # no probe ran it
    _static(5, "BL999", "info", "not-reproduced"),  # info: not counted
    _static(5, "BL811", "error", "not-reproduced"),  # a recompile rule: left out
    _static(1, "BL001", "error", "not-reproduced"),  # a file problem: not a statement
    _break(12, "BL901"),  # Dynamo skipped `skipped`...
    _static(13, "BL601", "error", "not-reproduced"),  # ...so this ran eagerly
    _break(3, path="other/lib.py"),  # outside the scored packages
]


def _package(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text(SOURCE, encoding="utf-8")
    return root


def _scores(root: Path) -> Any:
    return scoring.score(
        FINDINGS,
        root,
        {"pkg"},
        library_accuracy.SEVERITIES,
        library_accuracy.RECOMPILE_RULES,
    )


def test_scores_count_statements_of_errors_and_warnings(tmp_path: Path) -> None:
    scores = _scores(_package(tmp_path))
    assert (scores.overall.confirmed, scores.overall.not_reproduced) == (1, 2)
    assert scores.overall.not_reached == 1
    assert str(scores.overall.precision) == "33.3% (1/3)"
    # The refutation inside the skipped frame is left out of the traced precision.
    assert str(scores.traced.precision) == "50.0% (1/2)"
    assert str(scores.errors.precision) == "50.0% (1/2)"
    assert str(scores.traced_errors.precision) == "100.0% (1/1)"
    # Break lines: 2 (flagged), 4 (missed), 12 (a frame skip, missed).
    assert str(scores.recall) == "33.3% (1/3)"
    assert scores.outside_package == 1
    assert set(scores.by_code) == {"BL103", "BL201", "BL401", "BL601"}


def test_misses_and_false_positives_carry_their_source_lines(tmp_path: Path) -> None:
    scores = _scores(_package(tmp_path))
    assert [(m.where, m.kind, m.source) for m in scores.misses] == [
        ("pkg/mod.py:12", "frame skipped", "def skipped(x):"),
        ("pkg/mod.py:4", "graph break", "y = x.item()"),
    ]
    reason = "No tracing of `Tensor.item()` with the default config."
    assert scores.misses[1].reasons == [reason]
    assert scores.misses[1].probes == ["probe_forward_eval"]
    assert [(f.where, f.codes, f.source, f.in_skipped_frame) for f in scores.false_positives] == [
        ("pkg/mod.py:13", ["BL601"], "z = x.numpy()", True),
        ("pkg/mod.py:3", ["BL401"], "print(x)", False),
    ]


def test_a_break_taken_by_an_uncounted_finding_is_a_miss(tmp_path: Path) -> None:
    # The join gives Dynamo's break to the static finding on its line, so no BL900 reports
    # it; an info finding ("no break of its own") that Dynamo confirms is a break all the same.
    confirmed_info = {**_static(4, "BL101", "info", "confirmed"), "kind": "graph-break"}
    # A recompile rule that a recompile confirms is no break.
    recompiles = {**_static(9, "BL811", "error", "confirmed"), "kind": "recompiles"}
    scores = scoring.score(
        [_static(2, "BL201", "error", "confirmed"), _break(2), confirmed_info, recompiles],
        _package(tmp_path),
        {"pkg"},
        library_accuracy.SEVERITIES,
        library_accuracy.RECOMPILE_RULES,
    )
    assert str(scores.recall) == "50.0% (1/2)"
    assert [(m.where, m.kind, m.source) for m in scores.misses] == [
        ("pkg/mod.py:4", "graph break", "y = x.item()")
    ]
    assert str(scores.overall.precision) == "100.0% (1/1)"


def _document(library: str, half: str, confirmed: int, refuted: int, missed: int) -> dict:
    lines = {"confirmed": confirmed, "not_reproduced": refuted, "not_reached": 0}
    return {
        "library": library,
        "half": half,
        "probes": 4,
        "probe_statuses": {"ok": 3, "error": 1},
        "breaklint_commit": "abc1234",
        "lines": {
            "overall": lines,
            "outside_skipped_frames": lines,
            "errors": lines,
            "recall": {"hits": confirmed, "total": confirmed + missed},
        },
    }


def test_summary_pools_libraries_per_half_and_overall() -> None:
    documents = [
        _document("a", "tuning", 3, 1, 1),
        _document("b", "tuning", 1, 1, 3),
        _document("c", "heldout", 2, 0, 2),
    ]
    text, numbers = library_accuracy.summary(documents)
    assert (
        "| a | tuning | 3/4 | 4 | 4 | 0.75 (3/4) | 0.75 (3/4) | 0.75 (3/4) | 0.75 (3/4) |" in text
    )
    assert "| **tuning half** | tuning | 6/8 | 8 | 6 | 0.67 (4/6) |" in text
    assert "| **overall** | all | 9/12 | 12 | 8 | 0.75 (6/8) |" in text
    assert numbers["halves"]["heldout"]["recall"] == 0.5
    assert numbers["overall"]["precision"] == 0.75
    assert numbers["libraries"]["b"]["errors_precision"] == 0.5


def test_a_library_module_is_read_without_importing_it(tmp_path: Path) -> None:
    module = tmp_path / "lib.py"
    module.write_text(
        "import not_installed\n"
        "from lib_a.audio import Codec\n"
        "PACKAGES = ('lib_a', 'lib_b')\n"
        "MODES = ('eval', 'train')\n"
        "def build_small(): return not_installed.mel, ()\n"
        "def build_moded(mode):\n"
        "    model = Codec()\n"
        "    return model.decode, ()\n"
        "def _helper(): ...\n",
        encoding="utf-8",
    )
    library = library_accuracy.read_library("lib", "tuning", module)
    assert library.packages == ("lib_a", "lib_b")
    assert [(b.name, b.takes_mode) for b in library.builders] == [
        ("build_small", False),
        ("build_moded", True),
    ]
    targets = library_accuracy.probe_targets(library)
    assert [t.function for t in targets] == [
        "probe_small_eval",
        "probe_small_train",
        "probe_moded_eval",
        "probe_moded_train",
    ]
    probes = tmp_path / "probes" / "probes.py"
    probes.parent.mkdir()
    library_accuracy.write_probe_file(probes, library, targets)
    text = probes.read_text()
    compile(text, str(probes), "exec")
    assert "from lib_builders import build_moded, build_small" in text
    assert "    built = build_moded('train')\n    _in_mode(built, 'train')\n" in text
    # The module beside the probes is what breaklint reads to know what they compile.
    assert (probes.parent / "lib_builders.py").read_bytes() == module.read_bytes()
    assert [root.dotted for root in probe_roots([str(probes)])] == [
        "lib_a.audio.Codec().decode",
        "not_installed.mel",
    ]


def test_every_library_of_the_split_has_a_readable_module() -> None:
    for name, half in library_accuracy.LIBRARIES.items():
        library = library_accuracy.read_library(name, half, library_accuracy.module_path(name))
        assert 5 <= len(library.builders) <= 20, name


def test_rescore_writes_reports_and_the_summary(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "vit_pytorch").mkdir(parents=True)
    (root / "vit_pytorch" / "mod.py").write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "out" / "vit-pytorch"
    out.mkdir(parents=True)
    findings = [
        {**f, "path": f["path"].replace("pkg/", "vit_pytorch/")}
        for f in FINDINGS
        if f["path"].startswith("pkg/")
    ]
    probe = {"name": "probe_vit_eval", "status": "ok", "graphs": 2, "breaks": 1}
    report = {"findings": findings, "probes": [{**probe, "frames_skipped": 1, "wall_s": 1.5}]}
    (out / "breaklint.json").write_text(json.dumps(report), encoding="utf-8")
    run = {
        "command": ["python", "-m", "breaklint"],
        "root": str(root),
        "checkout": "/checkout",
        "environment": {"library": "1.0", "torch": "2.13.0", "breaklint": "0.1", "commit": "c0"},
        "jobs": 2,
        "probe_timeout_s": 180,
        "wall_s": 12.0,
        "exit_code": 1,
        "targets": [{"function": "probe_vit_eval", "builder": "build_vit", "mode": "eval"}],
    }
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    arguments = ["--libraries", "vit-pytorch", "--out", str(out.parent), "--rescore"]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "library_accuracy.py"), *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    assert (results["precision"]["overall"], results["recall"]) == (0.3333, 0.3333)
    assert results["probe_rows"][0]["probe"] == "probe_vit_eval"
    report_text = (out / "report.md").read_text()
    assert "| vit_pytorch/mod.py:4 | graph break | GB0124 |" in report_text
    assert "`print(x)`" in report_text
    summary = (out.parent / "summary.md").read_text()
    assert "| vit-pytorch | tuning | 1/1 | 3 | 3 | 0.33 (1/3) | 0.50 (1/2) |" in summary
    tuning = (out.parent / "tuning.md").read_text()
    assert "## vit-pytorch 1.0: precision 0.3333, recall 0.3333" in tuning
    assert "| vit_pytorch/mod.py:4 | graph break | Unsupported Tensor.item() call |" in tuning
    assert (
        "Probes that did not run to the end (their breaks are missing from the truth): none."
        in tuning
    )


def test_tuning_details_leave_the_held_out_half_out() -> None:
    held_out = {**_document("c", "heldout", 2, 0, 2), "misses": [], "false_positives": []}
    held_out["probe_rows"] = []
    assert "## c" not in library_accuracy.tuning_details([held_out])


def test_a_truth_recorded_in_another_environment_replays_with_its_paths_moved() -> None:
    from breaklint.dynamic.model import Probe

    dynamic_truth = _load("dynamic_truth")
    recorded = [
        Probe(path="/old/site-packages/lib/model.py", name="probe", line=3),
        frozenset({("/old/site-packages/lib/model.py", 7), ("/elsewhere/probes.py", 1)}),
        ("/old/site-packages-other/x.py",),
    ]
    moved = dynamic_truth._relocated(recorded, "/old/site-packages", "/new/site-packages")
    assert moved == [
        Probe(path="/new/site-packages/lib/model.py", name="probe", line=3),
        frozenset({("/new/site-packages/lib/model.py", 7), ("/elsewhere/probes.py", 1)}),
        ("/old/site-packages-other/x.py",),  # a sibling folder sharing the prefix stays
    ]
