"""A break is rerun with each config knob Dynamo's message names, to say whether the knob
would remove it. Under the knob Dynamo can fail where it only broke before: then the knob does
not help, and the probe's breaks stand as the plain compile found them."""

from __future__ import annotations

import json

import pytest

from conftest import run_breaklint

pytest.importorskip("torch", reason="the dynamic phase runs Dynamo")

# With capture_scalar_outputs, `.item()` gives an unbacked int, and indexing a Python list with
# it raises GuardOnDataDependentSymNode (Dynamo 2.13); without the knob, `.item()` breaks.
MODEL = """
import torch


class Pick(torch.nn.Module):
    def forward(self, x):
        scales = [1.0, 2.0, 3.0, 4.0]
        i = x.argmax().item()
        return x * scales[i]
"""

PROBES = """
import torch
from model import Pick


def probe_pick():
    return Pick(), (torch.rand(4),)
"""


def test_a_knob_under_which_dynamo_fails_leaves_the_break_confirmed(tmp_path) -> None:
    (tmp_path / "model.py").write_text(MODEL.lstrip(), encoding="utf-8")
    (tmp_path / "probes.py").write_text(PROBES.lstrip(), encoding="utf-8")
    done = run_breaklint(
        "model.py", "--probes", "probes.py", "--output-format", "json", cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert [(p["name"], p["status"]) for p in report["probes"]] == [("probe_pick", "ok")]
    found = [
        (f["code"], f["line"], f["status"], f["config_knob"], f["probe"])
        for f in report["findings"]
    ]
    assert found == [("BL101", 7, "confirmed", None, "probes.py::probe_pick")]
