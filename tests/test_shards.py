"""A sweep split across machines: `--shard I/N` runs a deterministic part of the probes, and
`breaklint merge` puts the shards' JSON reports back into the whole run's report."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from breaklint.dynamic.model import Probe
from breaklint.dynamic.shards import Shard
from conftest import run_breaklint

MODEL = """
    import torch


    class Scaled(torch.nn.Module):
        def forward(self, x):
            scale = x.abs().max().item()
            return x / scale


    class Shown(torch.nn.Module):
        def forward(self, x):
            print("shape", x.shape)
            return x + 1


    class Clean(torch.nn.Module):
        def forward(self, x):
            return x * 2
"""
PROBES = """
    import torch

    from model import Clean, Scaled, Shown


    def probe_item():
        return Scaled(), (torch.ones(2, 3),)


    def probe_print():
        return Shown(), (torch.ones(2),)


    def probe_clean():
        return Clean(), (torch.ones(2),)


    def probe_raises():
        raise ValueError("no model today")
"""
PROBE_NAMES = ("probe_item", "probe_print", "probe_clean", "probe_raises")


def test_a_probe_is_in_exactly_one_shard_by_its_names_not_its_folder():
    for count in (1, 2, 3, 7):
        for name in PROBE_NAMES:
            holding = [
                i for i in range(1, count + 1) if Shard(i, count).holds(Probe("p.py", name, 1))
            ]
            assert len(holding) == 1
            elsewhere = Probe("/another/checkout/p.py", name, 40)
            assert Shard(holding[0], count).holds(elsewhere)


@pytest.mark.parametrize(
    ("text", "message"),
    [("3/2", "I must be between 1 and N"), ("0/2", "I must be between 1 and N"), ("a", "not I/N")],
)
def test_a_bad_shard_is_a_usage_error(tmp_path: Path, text: str, message: str):
    done = run_breaklint(".", "--shard", text, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def _normalised(document: dict[str, Any]) -> dict[str, Any]:
    """The report without what only one run's clock says: times."""
    document = json.loads(json.dumps(document))
    document["summary"]["elapsed_s"] = 0
    for probe in document["probes"]:
        probe["wall_s"] = 0
        if probe["recompiles"] is not None:
            probe["recompiles"]["variants_s"] = 0
    return document


def test_two_shards_merged_are_the_whole_run(tmp_path: Path):
    pytest.importorskip("torch", reason="the probes run under Dynamo")
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL), encoding="utf-8")
    (tmp_path / "probes.py").write_text(textwrap.dedent(PROBES), encoding="utf-8")
    common = ["model.py", "--probes", "probes.py", "--no-cache", "--output-format", "json"]
    whole = run_breaklint(*common, "--jobs", "2", cwd=tmp_path)
    assert whole.returncode == 1, whole.stderr
    for index in (1, 2):
        shard = run_breaklint(*common, "--jobs", "1", "--shard", f"{index}/2", cwd=tmp_path)
        assert shard.returncode == 1, shard.stderr
        (tmp_path / f"shard{index}.json").write_text(shard.stdout, encoding="utf-8")
        ran = {p["name"] for p in json.loads(shard.stdout)["probes"]}
        assert ran == {n for n in PROBE_NAMES if Shard(index, 2).holds(Probe("probes.py", n, 1))}
        assert ran  # both shards run something: the test splits the work for real
    merged = run_breaklint("merge", "shard2.json", "shard1.json", cwd=tmp_path)
    assert merged.returncode == 1, merged.stderr
    expected = json.loads(whole.stdout)
    assert _normalised(json.loads(merged.stdout)) == _normalised(expected)
    statuses = {f["code"]: f["status"] for f in expected["findings"]}
    assert statuses["BL101"] == "confirmed" and statuses["BL401"] == "confirmed"
    assert "BL902" in statuses


def test_merge_refuses_what_is_not_every_shard_of_one_run(tmp_path: Path):
    shard = {"format": 1, "index": 1, "count": 2, "order": [], "static": [], "results": []}
    (tmp_path / "one.json").write_text(json.dumps({"shard": {**shard, "allowed": {}}}))
    (tmp_path / "plain.json").write_text(json.dumps({"findings": []}))
    done = run_breaklint("merge", "one.json", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "breaklint: error: the reports are shards 1/2: merge needs each of 1/2 to 2/2 once\n",
    )
    (tmp_path / "partial.json").write_text(json.dumps({"shard": {"format": 1, "index": 1}}))
    for name in ("plain.json", "partial.json"):
        done = run_breaklint("merge", name, cwd=tmp_path)
        assert (done.returncode, done.stderr) == (
            2,
            f"breaklint: error: {name}: not the JSON report of a --shard run\n",
        )
