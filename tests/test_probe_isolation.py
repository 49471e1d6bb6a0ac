"""Probes cannot reach each other: each starts from the same process state, a probe past
`--probe-memory` is reported as such, and a crashed probe's report holds only its own output."""

from __future__ import annotations

import json

import pytest

from conftest import run_breaklint

pytest.importorskip(
    "torch", reason="the dynamic phase runs Dynamo: pip install 'breaklint[dynamic]'"
)

MODEL = """
import torch


class Double(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""

# Run first, in the same worker as the probes of SECOND: everything it changes must be undone.
FIRST = """
import os
import sys

import torch
from model import Double


def probe_prints():
    print("OUTPUT OF THE FIRST PROBE", flush=True)
    return Double(), (torch.randn(4),)


def probe_changes_everything():
    os.chdir("/")
    sys.path.insert(0, "/nowhere/breaklint-probe")
    os.environ["BREAKLINT_PROBE_LEAK"] = "1"
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch._dynamo.config.capture_scalar_outputs = True
    return Double(), (torch.randn(4),)
"""

SECOND = """
import os
import sys

import torch
from model import Double


def probe_sees_a_fresh_process():
    assert os.getcwd() == {cwd!r}, os.getcwd()
    assert "/nowhere/breaklint-probe" not in sys.path
    assert "BREAKLINT_PROBE_LEAK" not in os.environ
    assert torch.get_default_dtype() is torch.float32
    assert torch.is_grad_enabled()
    assert not torch._dynamo.config.capture_scalar_outputs
    return Double(), (torch.randn(4),)


def probe_crashes():
    print("OUTPUT OF THE CRASHING PROBE", flush=True)
    os._exit(3)


def probe_allocates_without_end():
    tensors = []
    while True:
        tensors.append(torch.ones(2**25))


def probe_after_the_memory_hog():
    return Double(), (torch.randn(4),)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("isolation")
    (folder / "model.py").write_text(MODEL.lstrip(), encoding="utf-8")
    (folder / "first.py").write_text(FIRST.lstrip(), encoding="utf-8")
    (folder / "second.py").write_text(SECOND.format(cwd=str(folder)).lstrip(), encoding="utf-8")
    done = run_breaklint(
        "model.py",
        *("--probes", "first.py", "--probes", "second.py", "--jobs", "1"),
        *("--probe-memory", "3000", "--output-format", "json", "--no-cache"),
        cwd=folder,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return {probe["name"]: probe for probe in json.loads(done.stdout)["probes"]}


def test_each_probe_starts_from_the_same_process_state(report: dict) -> None:
    assert report["probe_changes_everything"]["status"] == "ok"
    fresh = report["probe_sees_a_fresh_process"]
    assert (fresh["status"], fresh["error"]) == ("ok", None)


def test_a_crashed_probe_reports_only_its_own_output(report: dict) -> None:
    crashed = report["probe_crashes"]
    assert (crashed["status"], crashed["error"]) == ("crashed", "worker exited with status 3")
    assert "OUTPUT OF THE CRASHING PROBE" in crashed["traceback"]
    assert "OUTPUT OF THE FIRST PROBE" not in crashed["traceback"]


def test_a_probe_past_the_memory_limit_has_its_own_status(report: dict) -> None:
    hog = report["probe_allocates_without_end"]
    assert hog["status"] == "out-of-memory"
    assert hog["error"].startswith("ran past the 3000 MB limit (--probe-memory): ")
    assert report["probe_after_the_memory_hog"]["status"] == "ok"
