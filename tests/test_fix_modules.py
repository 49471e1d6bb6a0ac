"""Whole modules fixed end to end (issue 21): `--fix --unsafe-fixes` in a subprocess on a
copy, then Dynamo (recording backend) compiles the fixed module to one graph with the eager
outputs of the original."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO

FIXTURES = REPO / "tests" / "fixes"
MODULES = [
    # (fixture, probe: an expression giving (callable, args), findings, summary line)
    ("statistic_module.py", "(Normalizer(), (torch.randn(4, 16),))", 3, "Fixed 3 findings."),
    ("nine_findings.py", "(Encoder(), (torch.randn(4, 16),))", 9, "Fixed 9 findings."),
]


def _run(source: str, probe: str) -> tuple[object, int, int]:
    """Eager outputs, graphs and breaks of the probed callable, built with seed 0."""
    torch = pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(source, "<fixed module>", "exec", dont_inherit=True), namespace)
    torch.manual_seed(0)
    function, args = eval(probe, {"torch": torch, **namespace})
    eager = function(*args)
    captured = torch_shim.capture(lambda compiled: compiled(*args), function)
    return eager, len(captured.ops_per_graph), len(captured.breaks)


@pytest.mark.parametrize(("fixture", "probe", "findings", "summary"), MODULES)
def test_unsafe_fixes_make_the_module_one_graph_with_equal_outputs(
    breaklint, tmp_path: Path, fixture: str, probe: str, findings: int, summary: str
) -> None:
    torch = pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    path = tmp_path / fixture
    shutil.copy(FIXTURES / fixture, path)
    original = path.read_text(encoding="utf-8")

    linted = breaklint(fixture, "--no-cache", "--output-format", "concise")
    assert linted.returncode == 1
    assert linted.stdout.count(" [error] ") == findings

    fixed = breaklint(fixture, "--no-cache", "--fix", "--unsafe-fixes")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert summary in fixed.stderr
    text = path.read_text(encoding="utf-8")
    again = breaklint(fixture, "--no-cache", "--fix", "--unsafe-fixes")
    assert again.returncode == 0
    assert path.read_text(encoding="utf-8") == text  # idempotent

    before, graphs_before, _ = _run(original, probe)
    after, graphs_after, breaks_after = _run(text, probe)
    assert graphs_before > 1
    assert (graphs_after, breaks_after) == (1, 0)
    torch.testing.assert_close(after, before)
