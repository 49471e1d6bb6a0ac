"""The dynamic phase end to end: the CLI runs Dynamo on probes in worker subprocesses."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from breaklint.rule import Phase, all_rules
from conftest import (
    LIBRARIES,
    REPO,
    Marker,
    corpus_line,
    corpus_markers,
    probe_names,
    run_breaklint,
    with_libraries,
)

pytest.importorskip(
    "torch", reason="the dynamic phase runs Dynamo: pip install 'breaklint[dynamic]'"
)
pytest.importorskip("numpy", reason="the corpus models call numpy")

CORPUS = REPO / "tests" / "corpus"
CORPUS_MODELS = ("models.py", "layers.py")
PROBES = CORPUS / "probes.py"


def _line(name: str, snippet: str) -> int:
    """The corpus line of `name` that contains `snippet` (found by its text, not its number)."""
    return corpus_line(CORPUS / name, snippet)


def _site(frame: str) -> str:
    """`layers.py:206` from a stack frame `/tmp/.../layers.py:206 in log_input_norm`."""
    return Path(frame.rsplit(" in ", 1)[0]).name


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One run of breaklint on the corpus with its probes, shared by the tests below. The
    corpus marks every recompile hazard, a dimension that only a recompile shows Dynamo
    specialises included (`RECOMPILE BL910` at `Resampler.forward`): the run varies
    everything (`--all-variants`)."""
    folder = tmp_path_factory.mktemp("corpus")
    for name in (*CORPUS_MODELS, "probes.py"):
        shutil.copy(CORPUS / name, folder / name)
    done = run_breaklint(
        *CORPUS_MODELS,
        *("--probes", "probes.py", "--output-format", "json", "--jobs", "2", "--all-variants"),
        "--dependencies",
        cwd=folder,
        env=with_libraries(),
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def _markers() -> set[Marker]:
    return corpus_markers(CORPUS / name for name in CORPUS_MODELS)


def _kind(finding: dict) -> str:
    """The marker a confirmed finding's evidence calls for: LIBRARY where Dynamo broke in an
    installed library's code, HOOK where it broke elsewhere in the corpus (in the registered
    hook), RECOMPILE for a guard that failed on every value, else SKIP or BREAK."""
    if finding.get("recompiles"):
        return "RECOMPILE"
    if Path(finding["stack"][-1].rsplit(" in ", 1)[0]).is_relative_to(LIBRARIES):
        return "LIBRARY"
    if _site(finding["stack"][-1]) != f"{finding['path']}:{finding['line']}":
        return "HOOK"
    return "SKIP" if finding["frame_skipped"] else "BREAK"


def test_confirmed_and_dynamic_findings_are_exactly_the_real_breaks(corpus_report: dict) -> None:
    evidence = {
        Marker(f["path"], f["line"], f["code"], _kind(f))
        for f in corpus_report["findings"]
        if f["status"] == "confirmed" or f["origin"] == "dynamic"
    }
    assert evidence == _markers()


def test_every_static_rule_is_confirmed_in_the_corpus(corpus_report: dict) -> None:
    static = {code for code, rule in all_rules().items() if rule.phase is Phase.STATIC}
    confirmed = {f["code"] for f in corpus_report["findings"] if f["status"] == "confirmed"}
    assert static - confirmed == set()


def test_hook_registration_takes_the_status_of_the_hook(corpus_report: dict) -> None:
    hooks = {m for m in _markers() if m.kind == "HOOK"}
    registrations = {
        (f["path"], f["line"]): f
        for f in corpus_report["findings"]
        if f["code"] in {m.code for m in hooks}
    }
    assert set(registrations) == {(m.file, m.line) for m in hooks}
    assert {f["status"] for f in registrations.values()} == {"confirmed"}
    shape_hook = registrations["models.py", _line("models.py", "register_forward_hook(report_")]
    shape_line = _line("models.py", 'print("fc output"')
    assert shape_hook["stack"][-1].endswith(f"models.py:{shape_line} in report_shape")
    logging_hook = registrations["layers.py", _line("layers.py", "pre_hook(log_input_norm)")]
    norm_line = _line("layers.py", 'logger.info("input norm')
    assert logging_hook["stack"][-1].endswith(f"layers.py:{norm_line} in log_input_norm")
    assert logging_hook["probe"] == "probes.py::probe_hooked_stack"


def test_generator_forward_is_a_skipped_frame(corpus_report: dict) -> None:
    by_line = {
        (f["line"], f["code"]): f for f in corpus_report["findings"] if f["path"] == "layers.py"
    }
    first_yield = by_line[_line("layers.py", "yield h[:1]"), "BL801"]
    assert (first_yield["status"], first_yield["kind"]) == ("confirmed", "frame-skipped")
    assert (first_yield["gb_id"], first_yield["gb_type"]) == (
        "GB0003",
        "Attempt to trace generator",
    )
    assert by_line[_line("layers.py", "yield h[1:]"), "BL801"]["status"] == "not-reproduced"


def test_break_in_a_while_condition_does_not_skip_the_frame(corpus_report: dict) -> None:
    condition = _line("layers.py", "while x.abs().max() > 100:")
    at_condition = [
        f for f in corpus_report["findings"] if f["path"] == "layers.py" and f["line"] == condition
    ]
    assert [(f["code"], f["status"], f["kind"]) for f in at_condition] == [
        ("BL201", "confirmed", "graph-break")
    ]


def test_every_static_finding_has_a_status(corpus_report: dict) -> None:
    statuses = {f["status"] for f in corpus_report["findings"] if f["origin"] == "static"}
    assert statuses <= {"confirmed", "not-reproduced", "not-reached"}
    assert "confirmed" in statuses


# The JSON contract of a finding with Dynamo's evidence: these names are public.
FINDING_FIELDS = [
    *("code", "name", "severity", "message", "path", "line", "column", "end_line"),
    *("end_column", "url", "hint", "scope", "origin", "status", "fix"),
]
EVIDENCE_FIELDS = [
    *("kind", "function", "gb_id", "gb_type", "explanation", "hints", "reason", "gb_url"),
    *("probe", "bytecode", "instruction", "stack", "config_knob", "frame_skipped"),
    *("dynamo_line", "later_call"),
]


def test_break_evidence_fields(corpus_report: dict) -> None:
    line = _line("models.py", "return x / x.norm().item()")
    item = next(
        f
        for f in corpus_report["findings"]
        if (f["path"], f["line"], f["status"]) == ("models.py", line, "confirmed")
    )
    assert list(item) == FINDING_FIELDS + EVIDENCE_FIELDS
    assert item["gb_id"] == "GB0124"
    assert item["gb_type"] == "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    assert "capture_scalar_outputs" in item["explanation"]
    assert item["hints"]
    assert item["probe"] == "probes.py::probe_block"
    assert item["function"] == "scale_by_norm"
    assert item["config_knob"] == "capture_scalar_outputs"
    assert "capture_scalar_outputs = True" in item["hint"]
    assert "gb0124.html" in item["reason"]
    marked = [row for row in item["bytecode"].splitlines() if row.startswith("-->")]
    assert len(marked) == 1 and marked[0].split()[1:4] == [str(line), "68", "CALL"]
    assert item["stack"][-1].endswith(f"models.py:{line} in scale_by_norm")


def test_breaks_without_knob_say_so(corpus_report: dict) -> None:
    line = _line("models.py", "copy.deepcopy(h.detach())")
    deepcopy = next(
        f for f in corpus_report["findings"] if (f["path"], f["line"]) == ("models.py", line)
    )
    assert (deepcopy["gb_id"], deepcopy["config_knob"]) == ("GB4198", None)


def test_hook_break_and_skipped_frame(corpus_report: dict) -> None:
    by_line = {
        f["line"]: f
        for f in corpus_report["findings"]
        if f["status"] == "confirmed" and f["path"] == "models.py"
    }
    hook_break = by_line[_line("models.py", 'print("fc output"')]
    assert hook_break["function"] == "report_shape"
    assert hook_break["probe"] == "probes.py::probe_hooked"
    skipped = by_line[_line("models.py", 'print("step", step)')]
    assert skipped["kind"] == "frame-skipped"
    assert "GB7000" in skipped["explanation"]


def test_probe_report(corpus_report: dict) -> None:
    probes = {p["name"]: p for p in corpus_report["probes"]}
    assert {p["status"] for p in probes.values()} == {"ok"}
    assert list(probes) == probe_names(PROBES)
    assert (probes["probe_clean"]["graphs"], probes["probe_clean"]["breaks"]) == (1, 0)
    assert (probes["probe_hooked"]["graphs"], probes["probe_hooked"]["breaks"]) == (2, 1)
    assert (probes["probe_looped"]["graphs"], probes["probe_looped"]["frames_skipped"]) == (0, 1)
    assert len(probes["probe_block"]["ops_per_graph"]) == probes["probe_block"]["graphs"] == 6
    # A generator's frame never reaches Dynamo: no graph, so no split, at one place.
    chunker = probes["probe_chunker"]
    assert (chunker["graphs"], chunker["breaks"], chunker["break_sites"]) == (0, 0, 1)


FAILING_PROBES = """
import os
import time

import torch
from model import Scale


def probe_raises():
    raise ValueError("no weights here")


def probe_sleeps():
    time.sleep(60)


def probe_exits():
    os._exit(1)


def probe_wrong_shape():
    return Scale()


def probe_takes_arguments(size):
    return Scale(), (torch.randn(size),)


def probe_good():
    return Scale(), (torch.randn(4),)
"""

MODEL = """
import torch


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = torch.nn.Parameter(torch.ones(()))

    def forward(self, x):
        x = x * 2
        getattr(torch._dynamo, "graph" + "_break")()
        if getattr(torch.compiler, "is_compiling")():  # a check the static phase cannot see
            return x * self.gain
        return x * self.gain.item()
"""


@pytest.fixture(scope="module")
def failing_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str]:
    folder = tmp_path_factory.mktemp("failing")
    (folder / "model.py").write_text(MODEL.lstrip(), encoding="utf-8")
    (folder / "probes.py").write_text(FAILING_PROBES.lstrip(), encoding="utf-8")
    (folder / "broken.py").write_text("def probe_x(:\n", encoding="utf-8")
    (folder / "empty.py").write_text("x = 1\n", encoding="utf-8")
    done = run_breaklint(
        "model.py",
        *("--probes", "probes.py", "--probes", "broken.py", "--probes", "empty.py"),
        *("--probe-timeout", "8", "--output-format", "json", "--jobs", "2"),
        cwd=folder,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout), done.stderr


def test_failing_probes_get_their_status(failing_report: tuple[dict, str]) -> None:
    report, _ = failing_report
    statuses = {p["name"]: p["status"] for p in report["probes"] if p["path"] == "probes.py"}
    assert statuses == {
        "probe_raises": "error",
        "probe_sleeps": "timeout",
        "probe_exits": "crashed",
        "probe_wrong_shape": "error",
        "probe_takes_arguments": "error",
        "probe_good": "ok",
    }
    errors = {p["name"]: p["error"] for p in report["probes"]}
    assert errors["probe_raises"] == "ValueError: no weights here"
    assert errors["probe_exits"] == "worker exited with status 1"
    assert "must return (callable, args)" in errors["probe_wrong_shape"]
    assert (
        errors["probe_takes_arguments"]
        == "probe_takes_arguments takes parameters; a probe takes none"
    )
    failed = next(f for f in report["findings"] if f["message"].startswith("probe probe_raises"))
    assert list(failed) == [*FINDING_FIELDS, "probe", "probe_status"]
    assert (failed["code"], failed["probe"], failed["probe_status"]) == (
        "BL902",
        "probes.py::probe_raises",
        "error",
    )
    raised = next(p for p in report["probes"] if p["name"] == "probe_raises")
    assert raised["traceback"].rstrip().endswith("ValueError: no weights here")
    assert "worker.py" not in raised["traceback"]


def test_bad_probe_files_are_reported(failing_report: tuple[dict, str]) -> None:
    report, _ = failing_report
    files = {p["path"]: p["error"] for p in report["probes"] if p["name"] == "<file>"}
    assert files == {
        "broken.py": "SyntaxError: invalid syntax",
        "empty.py": "no probe_* function in this probe file",
    }
    failed = {(f["path"], f["line"]) for f in report["findings"] if f["code"] == "BL902"}
    assert ("probes.py", 8) in failed and ("broken.py", 1) in failed


def test_other_probes_complete_despite_failures(failing_report: tuple[dict, str]) -> None:
    report, _ = failing_report
    good = next(p for p in report["probes"] if p["name"] == "probe_good")
    assert (good["graphs"], good["breaks"]) == (2, 1)
    dynamic = [f for f in report["findings"] if f["code"] == "BL900"]
    assert [(f["line"], f["gb_id"], f["status"]) for f in dynamic] == [(11, "GB0025", "confirmed")]
    assert list(dynamic[0]) == FINDING_FIELDS + EVIDENCE_FIELDS


def test_not_reproduced_is_in_json_only(failing_report: tuple[dict, str], write, breaklint) -> None:
    report, _ = failing_report
    item = next(f for f in report["findings"] if f["line"] == 14)
    assert (item["code"], item["status"]) == ("BL101", "not-reproduced")


def test_a_flagged_operand_that_never_ran_is_not_reached(write, breaklint) -> None:
    write(
        "model.py",
        """
        import torch


        class Guarded(torch.nn.Module):
            def forward(self, x, mask=None):
                if x.dtype == torch.float16 and not torch.isfinite(x).all():
                    x = x.clamp(-1, 1)
                if mask is not None and mask.any():
                    x = x + 1
                if x.dtype == torch.float32 and x.any():
                    x = x + 2
                return x
        """,
    )
    write("probes.py", "import torch\nfrom model import Guarded\n\n\n"
          "def probe_guarded():\n    return Guarded(), (torch.randn(4),)\n")  # fmt: skip
    done = breaklint("model.py", "--probes", "probes.py", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    flagged = [
        (f["code"], f["line"], f["column"], f["end_column"], f["status"])
        for f in json.loads(done.stdout)["findings"]
    ]
    assert flagged == [
        ("BL201", 6, 41, 68, "not-reached"),  # fp32: Python stops at the dtype test
        ("BL201", 8, 33, 43, "not-reached"),  # mask is None
        ("BL201", 10, 41, 48, "confirmed"),
    ]


def test_a_break_on_the_first_line_of_a_call_confirms_its_flagged_argument(
    write, breaklint
) -> None:
    write(
        "model.py",
        """
        import torch


        def pad_to_longest(x, lengths):
            return torch.zeros(
                x.size(0),
                lengths.max(),
            )


        compiled = torch.compile(pad_to_longest)
        """,
    )
    write(
        "probes.py",
        """
        import torch
        from model import pad_to_longest


        def probe_pad():
            return pad_to_longest, (torch.randn(2, 3), torch.tensor([2, 3]))
        """,
    )
    done = breaklint("model.py", "--probes", "probes.py", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert [(f["code"], f["line"], f["status"]) for f in findings] == [("BL304", 7, "confirmed")]
    assert findings[0]["gb_type"] == "Data dependent operator"


def test_without_probes_no_user_code_runs(write, breaklint) -> None:
    write("model.py", "import os\nos._exit(3)\n")
    done = breaklint("model.py", "--output-format", "json")
    assert done.returncode == 0, done.stderr
    assert "probes" not in json.loads(done.stdout)


def test_dynamic_from_config(write, breaklint) -> None:
    write("pyproject.toml", '[tool.breaklint]\nprobes = ["checks"]\n')
    write("model.py", MODEL)
    write("checks/probe_model.py", "import torch\nfrom model import Scale\n\n\n"
          "def probe_scale():\n    return Scale(), (torch.randn(4),)\n")  # fmt: skip
    done = breaklint("model.py", "--dynamic", "--output-format", "json", "--jobs", "1")
    assert done.returncode == 1, done.stderr
    assert [p["status"] for p in json.loads(done.stdout)["probes"]] == ["ok"]


def test_suppressed_lines_stay_quiet_in_the_dynamic_phase(write, breaklint) -> None:
    write(
        "model.py",
        "import torch\n\n\n"
        "class Noisy(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        print(x.shape)  # noqa: BL401\n"
        "        y = x * 2\n"
        "        # breaklint: ignore[BL101]\n"
        "        return y * y.max().item()\n",
    )
    write("probes.py", "import torch\nfrom model import Noisy\n\n\n"
          "def probe_noisy():\n    return Noisy(), (torch.randn(4),)\n")  # fmt: skip
    done = breaklint("model.py", "--probes", "probes.py", "--output-format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["findings"] == []
    assert report["probes"][0]["break_sites"] == 2  # Dynamo did break at both lines


def test_dynamic_without_probes_is_an_error(write, breaklint) -> None:
    write("model.py", "x = 1\n")
    done = breaklint("model.py", "--dynamic")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "breaklint: error: --dynamic needs probes: pass --probes or set [tool.breaklint] probes"
    ]


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def test_device_cuda_without_cuda_is_a_one_line_error(write, breaklint) -> None:
    if _has_cuda():
        pytest.skip("this machine has CUDA")
    write("model.py", MODEL)
    write("probes.py", "import torch\nfrom model import Scale\n\n\n"
          "def probe_scale():\n    return Scale(), (torch.randn(4),)\n")  # fmt: skip
    # --quiet: a worker slow to import torch may first show a progress line; the error stays.
    done = breaklint("model.py", "--probes", "probes.py", "--device", "cuda", "--quiet")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "breaklint: error: CUDA was requested (--device cuda or --cudagraphs) but "
        "torch.cuda.is_available() is False"
    ]


def _scale_on(device: str, write, breaklint) -> dict:
    """The JSON report of the Scale probe run with `--device DEVICE`; the probe's inputs come
    as a list inside a tuple, so moving them reaches into containers."""
    write("model.py", MODEL)
    write("probes.py", "import torch\nfrom model import Scale\n\n\n"
          "def probe_scale():\n    return Scale(), ([torch.randn(4)],)[0], {}\n")  # fmt: skip
    done = breaklint(
        "model.py", "--probes", "probes.py", "--device", device, "--output-format", "json"
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


# The Scale probe: one break (the graph_break call, line 11), two graphs, on any device.
SCALE_BREAKS = ([("ok", 2, 1, 0)], [("BL900", 11, 9)])


def _breaks_seen(report: dict) -> tuple:
    """What a user compares between devices: each probe's counts and the confirmed findings."""
    probes = [
        (p["status"], p["graphs"], p["breaks"], p["frames_skipped"]) for p in report["probes"]
    ]
    confirmed = sorted(
        (f["code"], f["line"], f["column"])
        for f in report["findings"]
        if f["status"] == "confirmed"
    )
    return probes, confirmed


def test_device_cuda_moves_module_and_inputs(write, breaklint) -> None:
    if not _has_cuda():
        pytest.skip("needs a CUDA GPU")
    on_cuda = _scale_on("cuda", write, breaklint)
    assert [p["device"] for p in on_cuda["probes"]] == ["cuda"]
    assert _breaks_seen(on_cuda) == _breaks_seen(_scale_on("cpu", write, breaklint))
    assert _breaks_seen(on_cuda) == SCALE_BREAKS


POSITIONS_MODEL = """
import torch


class Positions(torch.nn.Module):
    def forward(self, x):
        x = x + torch.arange(x.shape[-1])
        torch._dynamo.graph_break()
        return x * torch.ones(())
"""


def test_on_cuda_a_model_that_makes_cpu_tensors_runs_on_the_cpu_or_is_told_to(
    write, breaklint
) -> None:
    """A forward that calls `torch.arange(n)` makes a CPU tensor beside CUDA inputs: under
    `--device auto` the probe runs again on the CPU and says why; under `--device cuda` it
    fails with torch's message and the way out; `--device cpu` runs it clean."""
    if not _has_cuda():
        pytest.skip("needs a CUDA GPU")
    write("model.py", POSITIONS_MODEL)
    write("probes.py", "import torch\nfrom model import Positions\n\n\n"
          "def probe_positions():\n    return Positions(), (torch.randn(4),)\n")  # fmt: skip
    runs = {
        device: breaklint(
            "model.py", "--probes", "probes.py", "--device", device, "--output-format", "json"
        )
        for device in ("auto", "cuda", "cpu")
    }
    on_auto, on_cuda, on_cpu = (
        json.loads(runs[device].stdout)["probes"][0] for device in ("auto", "cuda", "cpu")
    )
    assert (on_cuda["status"], on_cuda["device"], on_cuda["fell_back"]) == ("error", "cuda", None)
    assert on_cuda["error"].endswith(
        "(the probe ran on cuda; --device cpu runs a model that makes its tensors there)"
    )
    assert (on_cpu["status"], on_cpu["device"], on_cpu["graphs"]) == ("ok", "cpu", 2)
    assert (on_auto["status"], on_auto["device"], on_auto["graphs"]) == ("ok", "cpu", 2)
    # The compiled call runs first: Dynamo's fake tensors meet the CPU tensor before eager
    # code does (seen on an H200, torch 2.11); an eager call says it in its own words.
    refusals = (
        "TorchRuntimeError: RuntimeError when making fake tensor call",
        "RuntimeError: Expected all tensors to be on the same device",
    )
    assert on_auto["fell_back"].startswith(tuple(f"cuda: {refusal}" for refusal in refusals))
    done = breaklint("model.py", "--probes", "probes.py", "--jobs", "1")
    shown = "|".join(re.escape(refusal) for refusal in refusals)
    assert re.search(rf"probe_positions: ok .* on cpu \(failed on cuda: ({shown})", done.stdout)


@pytest.mark.parametrize(
    "seen_on_an_h200",
    [
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0"
        " and cpu!",
        "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor"
        " to host memory first.",
        "Expected a 'cuda' device type for generator but found 'cpu'",
        # an op that takes one argument on the CPU only: torch's message (ATen's
        # PackedSequence.cpp) for the lengths the probe moved to cuda
        "'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor",
        # Dynamo's fake tensors: the devices below the first line, which the report shows
        "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node"
        " with fake tensors: call_function <built-in function lt>(...): got RuntimeError("
        "'Unhandled FakeTensor Device Propagation for aten.lt.Tensor, found two different"
        " devices cpu, cuda:0')",
    ],
)  # fmt: skip
def test_a_cpu_tensor_on_cuda_gets_the_way_out(seen_on_an_h200: str) -> None:
    from breaklint.dynamic.probe_call import failure

    hint = " (the probe ran on cuda; --device cpu runs a model that makes its tensors there)"
    shown = seen_on_an_h200.splitlines()[0]
    assert failure(RuntimeError(seen_on_an_h200), "cuda").error == f"RuntimeError: {shown}{hint}"
    assert failure(RuntimeError(seen_on_an_h200), "cpu").error == f"RuntimeError: {shown}"
    assert not failure(
        RuntimeError("mat1 and mat2 shapes cannot be multiplied"), "cuda"
    ).error.endswith(hint)


def test_a_tensor_moved_to_the_probes_device_keeps_its_dynamo_marks() -> None:
    # On CUDA `.to` makes a new tensor; without its marks a dimension the probe marked static
    # was compiled as dynamic, and the recompile per size (BL910) was missed (seen on an H200).
    # "meta" makes a new tensor here as "cuda" does there.
    import torch

    from breaklint.dynamic.probe_call import to_device

    x = torch.randn(2, 3)
    torch._dynamo.mark_static(x, 0)
    torch._dynamo.mark_dynamic(x, 1)
    (moved,) = to_device((x,), "meta")
    assert moved.device.type == "meta"
    assert (moved._dynamo_static_indices, moved._dynamo_dynamic_indices) == ({0}, {1})
    assert to_device(x, "cpu") is x


def test_the_report_names_the_device_each_probe_ran_on(write, breaklint) -> None:
    report = _scale_on("cpu", write, breaklint)
    assert [p["device"] for p in report["probes"]] == ["cpu"]
    assert _breaks_seen(report) == SCALE_BREAKS
    done = breaklint("model.py", "--probes", "probes.py", "--device", "cpu", "--jobs", "1")
    assert re.search(
        r"probes\.py::probe_scale: ok  graphs 2 .* \d+\.\d\ds on cpu$", done.stdout, re.M
    )


def test_full_output_shows_evidence_and_bytecode(write, breaklint) -> None:
    write("model.py", MODEL)
    write("probes.py", "import torch\nfrom model import Scale\n\n\n"
          "def probe_scale():\n    return Scale(), (torch.randn(4),)\n")  # fmt: skip
    done = breaklint("model.py", "--probes", "probes.py", "--show-bytecode", "--jobs", "1")
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert "model.py:11:9: BL900 [error, confirmed] Dynamo broke the graph here (GB0025" in out
    assert "  = dynamo: GB0025" in out and "probe probes.py::probe_scale" in out
    assert re.search(r"-->\s+11\s+\d+\s+CALL", out)
    assert "model.py:14" not in out  # not reproduced: hidden from the human output
    assert "probes.py::probe_scale: ok  graphs 2  breaks 1" in out
