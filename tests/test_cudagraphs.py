"""`--probes ... --cudagraphs`: where Inductor runs a graph without CUDA graphs under
mode="reduce-overhead" (BL920). The reasons exist only on a CUDA GPU: there the probes compile
for real; without one the option is a one-line error, and the parser is checked on the message
an H100 gave."""

from __future__ import annotations

import json

import pytest

from conftest import corpus_line

# A buffer the module owns may be mutated (CUDA graphs keep it static); an input may not.
MODEL = """
import torch


class Accumulate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("seen", torch.zeros(4))

    def forward(self, x, total):
        self.seen.add_(x)
        total.add_(x)
        return total * 2
"""
PROBES = """
import torch
from model import Accumulate


def probe_accumulate():
    return Accumulate(), (torch.randn(4), torch.zeros(4))
"""

# What torch 2.11.0+cu130 logged on an NVIDIA H100 for an input mutated in place (2026-11-26),
# and two other messages of the same logger that are not skips.
SEEN_ON_AN_H100 = (
    "skipping cudagraphs due to mutated inputs (1 instances). Found from : \n"
    '   File "/work/main/.gpu/explore_cudagraphs.py", line 22, in input_mutation\n'
    "    x.add_(1)\n"
)
NOT_SKIPS = (
    "Recording cudagraph tree for graph without symints",
    "CUDAGraph supports dynamic shapes by recording a new graph for each distinct input size. "
    "Recording too many CUDAGraphs may lead to extra overhead. We have observed 9 distinct sizes.",
)


def _has_cuda() -> bool:
    torch = pytest.importorskip("torch", reason="the dynamic phase needs torch")
    return torch.cuda.is_available()


def test_cudagraphs_with_device_cpu_is_a_usage_error(write, breaklint) -> None:
    write("model.py", MODEL)
    write("probes.py", PROBES)
    done = breaklint("model.py", "--probes", "probes.py", "--cudagraphs", "--device", "cpu")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "breaklint: error: --cudagraphs needs a CUDA GPU: it cannot run with --device cpu"
    ]


def test_cudagraphs_without_cuda_is_a_one_line_error(write, breaklint) -> None:
    if _has_cuda():
        pytest.skip("this machine has CUDA")
    write("model.py", MODEL)
    write("probes.py", PROBES)
    done = breaklint("model.py", "--probes", "probes.py", "--cudagraphs", "--quiet")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "breaklint: error: CUDA was requested (--device cuda or --cudagraphs) but "
        "torch.cuda.is_available() is False"
    ]


def _skip(line: int, reason: str, probe: str):
    from breaklint.dynamic.model import Break
    from breaklint.findings import BreakKind, Evidence

    kind = BreakKind.CUDAGRAPHS_SKIPPED
    evidence = Evidence(kind, "f", None, "CUDA graphs skipped", reason, (), reason, None, probe,
                        "", "", ())  # fmt: skip
    return Break("/m.py", line, 1, 2, evidence)


def test_each_place_and_reason_is_kept_once_from_the_first_probe() -> None:
    from breaklint.dynamic.model import each_skip_once

    mutated, cpu = "mutated inputs (1 instances)", "cpu device (arg0_1)"
    seen = [_skip(5, mutated, "a"), _skip(5, mutated, "b"), _skip(5, cpu, "b"), _skip(7, cpu, "a")]
    assert [(s.line, s.evidence.explanation, s.evidence.probe) for s in each_skip_once(seen)] == [
        (5, mutated, "a"),
        (5, cpu, "b"),
        (7, cpu, "a"),
    ]


def test_the_skip_message_gives_its_reason_and_the_users_line() -> None:
    pytest.importorskip("torch", reason="the dynamic phase needs torch")
    from breaklint.dynamic import torch_shim

    skip = torch_shim.parse_cudagraph_skip(SEEN_ON_AN_H100)
    assert skip is not None
    assert [(f.path, f.line, f.function) for f in skip.frames] == [
        ("/work/main/.gpu/explore_cudagraphs.py", 22, "input_mutation")
    ]
    (segment,) = skip.segments
    assert (segment.gb_type, segment.explanation) == (
        "CUDA graphs skipped",
        "mutated inputs (1 instances)",
    )
    assert segment.hints == (
        "mutate a copy (`x = x.clone()`) or a buffer or parameter the module owns",
    )
    assert [torch_shim.parse_cudagraph_skip(message) for message in NOT_SKIPS] == [None, None]


def _report(write, breaklint, *options: str) -> dict:
    write("model.py", MODEL)
    write("probes.py", PROBES)
    done = breaklint(
        "model.py", "--probes", "probes.py", "--no-variants", "--output-format", "json", *options
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_a_mutated_input_skips_cudagraphs_at_its_line(write, breaklint, tmp_path) -> None:
    if not _has_cuda():
        pytest.skip("needs a CUDA GPU")
    report = _report(write, breaklint, "--cudagraphs")
    skips = [f for f in report["findings"] if f["code"] == "BL920"]
    assert [(f["path"], f["line"], f["severity"]) for f in skips] == [
        ("model.py", corpus_line(tmp_path / "model.py", "total.add_(x)"), "warning")
    ]
    assert skips[0]["message"] == (
        'Inductor runs this graph without CUDA graphs under mode="reduce-overhead": '
        "mutated inputs (1 instances)"
    )
    assert skips[0]["kind"] == "cudagraphs-skipped"
    (probe,) = report["probes"]
    # The graph is whole: Dynamo's counts are those of a run without the option.
    assert (probe["device"], probe["graphs"], probe["breaks"], probe["cudagraph_skips"]) == (
        "cuda",
        1,
        0,
        1,
    )


def test_without_the_option_nothing_is_compiled_for_cudagraphs(write, breaklint) -> None:
    if not _has_cuda():
        pytest.skip("needs a CUDA GPU")
    report = _report(write, breaklint)
    assert [f["code"] for f in report["findings"] if f["code"] == "BL920"] == []
    assert [p["cudagraph_skips"] for p in report["probes"]] == [0]
