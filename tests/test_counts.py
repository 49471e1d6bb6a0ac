"""A probe's counts are the ones users compare with `torch._dynamo.explain` on the same call:
`graphs` is explain's `graph_count`, `breaks` its `graph_break_count`; `break_sites` counts
the places, and `frames_skipped` the frames Dynamo ran eagerly, which explain does not count."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import run_breaklint

torch = pytest.importorskip("torch", reason="the counts are Dynamo's")

MODEL = """
import torch


def split(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x * 2


def looped(x):
    for _ in range(2):
        x = split(x)  # a break inside a loop: Dynamo skips this frame
    return x


class Net(torch.nn.Module):
    def forward(self, x):
        x = split(x)
        x = split(x)
        x = split(x)
        return looped(x)
"""

PROBES = """
import torch
from model import Net


def probe_net():
    return Net(), (torch.randn(2, 4),)
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("counts")
    (folder / "model.py").write_text(MODEL.lstrip(), encoding="utf-8")
    (folder / "probes.py").write_text(PROBES.lstrip(), encoding="utf-8")
    return folder


def _explained(folder: Path) -> tuple[int, int]:
    sys.path.insert(0, str(folder))
    try:
        from model import Net

        explained = torch._dynamo.explain(Net())(torch.randn(2, 4))
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("model", None)
    return explained.graph_count, explained.graph_break_count


def test_graphs_and_breaks_are_explains_counts_on_a_model_with_a_skipped_frame(
    folder: Path,
) -> None:
    options = ("--probes", "probes.py", "--no-variants", "--no-cache", "--exit-zero")
    done = run_breaklint("model.py", *options, "--output-format", "json", cwd=folder)
    (probe,) = json.loads(done.stdout)["probes"]
    counts = (probe["graphs"], probe["breaks"], probe["break_sites"], probe["frames_skipped"])
    graph_count, graph_break_count = _explained(folder)
    # Two places (the break in `split`, and `looped`, skipped), one split of the call.
    assert counts == (graph_count, graph_break_count, 2, 1) == (2, 1, 2, 1)
    full = run_breaklint("model.py", *options, cwd=folder).stdout
    assert "probes.py::probe_net: ok  graphs 2  breaks 1 (2 places)  ops per graph 1,1  " in full
