"""Calls that vary: Dynamo's recompilations over a probe's calls, told apart into what Dynamo
is designed to do (automatic dynamic: one more compile, then a general graph) and guards that
fail on every new value (a finding at the line that installed the guard)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO, corpus_line, run_breaklint

pytest.importorskip("torch", reason="recompiles are counted by running Dynamo")

FOLDER = REPO / "tests" / "recompiles"
MODELS = FOLDER / "models.py"


def _run(folder: Path, output_format: str, *options: str) -> str:
    done = run_breaklint(
        "models.py",
        *("--probes", "probes.py", "--output-format", output_format, "--jobs", "2", *options),
        cwd=folder,
    )
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copied = tmp_path_factory.mktemp("recompiles")
    for name in ("models.py", "probes.py"):
        shutil.copy(FOLDER / name, copied / name)
    return copied


@pytest.fixture(scope="module")
def report(folder: Path) -> dict:
    return json.loads(_run(folder, "json"))


def _findings(report: dict) -> list[tuple[str, int, str, str, str]]:
    return [
        (f["path"], f["line"], f["code"], f["status"], f["severity"]) for f in report["findings"]
    ]


def _probe(report: dict, name: str) -> dict:
    (found,) = [p for p in report["probes"] if p["name"] == name]
    assert found["status"] == "ok", found
    return found["recompiles"]


def _finding(report: dict, code: str) -> dict:
    (found,) = [f for f in report["findings"] if f["code"] == code]
    return found


def test_findings_are_the_guards_that_fail_on_every_value(report: dict) -> None:
    assert _findings(report) == [
        ("models.py", corpus_line(MODELS, "self.calls += 1"), "BL811", "confirmed", "error"),
        ("models.py", corpus_line(MODELS, "for i in range(n)"), "BL812", "confirmed", "error"),
        ("models.py", corpus_line(MODELS, "def widened"), "BL910", "confirmed", "warning"),
    ]


def test_range_bound_names_the_guard_and_the_compiles_of_derived_variants(report: dict) -> None:
    finding = _finding(report, "BL812")
    # The probe's call (n = 3) twice again, n = 4 and 5: the guard `n == 3` reads n; x is not
    # varied, since no guard reads its size beyond the sizes every static compile checks.
    assert finding["recompiles"] == {
        "guard": "n == 3",
        "guard_failures": 2,
        "compiles": 3,
        "calls": 5,
        "recompile_limit_hit": False,
    }
    assert finding["probe"] == "probes.py::probe_total"
    summary = _probe(report, "probe_total")
    guards = {g["guard"]: (g["failures"], g["per_value"]) for g in summary["guards"]}
    assert guards == {"n == N": (2, True)}


def test_all_variants_vary_every_size_and_number(folder: Path) -> None:
    report = json.loads(_run(folder, "json", "--all-variants"))
    # The probe's call (n = 3) twice more, x with 5 and 6 elements, n = 4 and 5.
    assert _finding(report, "BL812")["recompiles"] == {
        "guard": "n == 3",
        "guard_failures": 2,
        "compiles": 4,
        "calls": 7,
        "recompile_limit_hit": False,
    }
    summary = _probe(report, "probe_total")
    guards = {g["guard"]: (g["failures"], g["per_value"]) for g in summary["guards"]}
    assert guards == {
        "tensor 'x' size mismatch at index 0. expected N, actual N": (1, False),
        "n == N": (2, True),
    }
    assert [(f["code"], f["status"]) for f in report["findings"]] == [
        ("BL811", "confirmed"),
        ("BL812", "confirmed"),
        ("BL910", "confirmed"),
    ]


def test_a_variant_budget_leaves_the_other_variants_out(folder: Path) -> None:
    report = json.loads(_run(folder, "json", "--variant-budget", "1e-9"))
    summary = _probe(report, "probe_total")
    # The probe's call twice more (always), then no other: the budget was spent.
    assert (summary["calls"], summary["variant_budget_hit"]) == (3, True)
    # The calls a probe gives all run.
    assert (_probe(report, "probe_counter")["calls"], report["findings"][0]["code"]) == (6, "BL811")


def test_a_count_passed_as_a_tensor_compiles_once(report: dict) -> None:
    summary = _probe(report, "probe_total_of_tensor")
    assert (summary["calls"], summary["compiles"], summary["recompiles"]) == (5, 1, 0)


def test_mutated_module_number_reaches_the_recompile_limit(report: dict) -> None:
    finding = _finding(report, "BL811")
    # The first compiled call is on a fresh module: its count is 0, then 1 on the second.
    assert finding["recompiles"]["guard"] == "self.calls == 0"
    assert finding["recompiles"]["recompile_limit_hit"] is True
    summary = _probe(report, "probe_counter")
    assert summary["cache_limit_hit"] is True
    assert (summary["calls"], summary["compiles"], summary["recompiles"]) == (6, 2, 1)


def test_batch_size_and_float_recompile_once_and_generalise(report: dict) -> None:
    summary = _probe(report, "probe_batch_and_float")
    assert (summary["calls"], summary["compiles"], summary["recompiles"]) == (4, 2, 1)
    assert summary["cache_limit_hit"] is False
    assert [g["per_value"] for g in summary["guards"]] == [False]
    scaled = range(corpus_line(MODELS, "def scaled"), corpus_line(MODELS, "def widened"))
    assert [f for f in report["findings"] if f["line"] in scaled] == []


def test_a_dimension_marked_static_that_varies_is_a_finding(report: dict) -> None:
    finding = _finding(report, "BL910")
    assert finding["recompiles"]["guard"] == (
        "tensor 'x' size mismatch at index 0. expected 2, actual 3"
    )
    assert "mark_dynamic" in finding["hint"]
    assert finding["origin"] == "dynamic"


def test_full_output_and_sarif_carry_the_probe_summary(folder: Path, report: dict) -> None:
    full = _run(folder, "full")
    assert "probes.py::probe_batch_and_float: ok  graphs 1  breaks 0  ops per graph 1" in full
    assert "  calls 4  compiles 2  recompiles 1  guard failures 1 (generalised)\n" in full
    assert (
        "  calls 6  compiles 2  recompiles 1  guard failures 2 (recompiles on every new value "
        "of `self.calls == N`, recompile limit hit: runs eagerly)\n" in full
    )
    sarif = json.loads(_run(folder, "sarif"))
    probes = sarif["runs"][0]["properties"]["probes"]
    untimed = [
        [{k: v for k, v in p["recompiles"].items() if k != "variants_s"} for p in run]
        for run in (probes, report["probes"])
    ]
    assert untimed[0] == untimed[1]
    assert [p["recompiles"]["cache_limit_hit"] for p in probes] == [
        True,
        False,
        False,
        False,
        False,
    ]


def test_no_variants_runs_only_the_calls_probes_give(folder: Path) -> None:
    report = json.loads(_run(folder, "json", "--no-variants"))
    calls = {p["name"]: p["recompiles"]["calls"] for p in report["probes"]}
    assert calls == {
        "probe_counter": 6,
        # A probe's single call is made twice: what a call after the first compiles.
        "probe_total": 2,
        "probe_total_of_tensor": 5,
        "probe_batch_and_float": 4,
        "probe_static_batch": 2,
    }
    # The derived variants found the range bound and the static batch: now only BL811 is.
    assert [(f["code"], f["status"]) for f in report["findings"]] == [
        ("BL811", "confirmed"),
        ("BL812", "not-reproduced"),
    ]


def test_breaks_are_ranked_by_how_often_a_call_splits_there(tmp_path: Path) -> None:
    for name in ("stack.py", "stack_probes.py"):
        shutil.copy(FOLDER / name, tmp_path / name)
    options = ("--probes", "stack_probes.py", "--jobs", "1")
    full = run_breaklint("stack.py", *options, cwd=tmp_path)
    lines = full.stdout.split("probes.py::probe_net: ok")[1].splitlines()[2:]
    assert lines == [
        "  skips the whole frame, which runs eagerly: stack.py:11 in `Layer.forward` (Call to "
        "`torch._dynamo.graph_break()`)",
        "  splits 4 times per call: stack.py:11 in `Layer.forward` (Call to "
        "`torch._dynamo.graph_break()`)",
        "  splits 1 time per call: stack.py:22 in `Net.forward` (Failed to trace builtin operator)",
    ]
    report = json.loads(
        run_breaklint("stack.py", *options, "--output-format", "json", cwd=tmp_path).stdout
    )
    (probe,) = report["probes"]
    assert [(b["line"], b["kind"], b["splits_per_call"]) for b in probe["breaks_by_cost"]] == [
        (11, "frame-skipped", None),
        (11, "graph-break", 4),
        (22, "graph-break", 1),
    ]
