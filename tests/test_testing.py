"""The pytest helper: `assert_graph_clean` and the `graph_clean` fixture, run through pytester."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points

import pytest

from conftest import REPO

pytest_plugins = ["pytester"]

# Imported before pytester snapshots sys.modules: an in-process run drops the modules it
# imported when it ends, and torch cannot be imported a second time in one process.
try:
    import breaklint.dynamic.torch_shim
    import breaklint.testing  # noqa: F401
except ImportError:
    HAS_TORCH = False
else:
    HAS_TORCH = True
needs_torch = pytest.mark.skipif(
    not HAS_TORCH, reason="assert_graph_clean compiles the model: needs torch"
)

BREAKING = """
import torch


class Shout(torch.nn.Module):
    def forward(self, x):
        print("forward")
        return x * x.max().item()


class Quiet(torch.nn.Module):
    def forward(self, x):
        return x * x.max()
"""


def _plugin_args() -> tuple[str, ...]:
    """Load the plugin by name unless the installed package already registers it."""
    installed = {entry.value for entry in entry_points(group="pytest11")}
    return () if "breaklint.pytest_plugin" in installed else ("-p", "breaklint.pytest_plugin")


def _run(pytester: pytest.Pytester, test: str, subprocess: bool) -> pytest.RunResult:
    pytester.makepyfile(shout_model=BREAKING, test_model=test)
    args = (*_plugin_args(), "-p", "no:cacheprovider")
    if subprocess:  # torch imports lazily while compiling: in-process runs would drop that
        return pytester.runpytest_subprocess(*args, timeout=600)
    return pytester.runpytest_inprocess(*args)


def test_entry_point_registers_the_plugin():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["pytest11"] == {"breaklint": "breaklint.pytest_plugin"}


def test_plugin_is_inert_when_imported():
    script = (
        "import sys, breaklint.pytest_plugin\n"
        "assert not {'torch', 'breaklint.rule', 'breaklint.testing'} & set(sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


SUITE = """
import torch
from shout_model import Quiet, Shout

from breaklint.testing import assert_graph_clean


def test_shout(graph_clean):
    graph_clean(Shout(), torch.randn(4))


def test_quiet(graph_clean):
    report = graph_clean(Quiet(), torch.randn(4))
    assert (report.graphs, report.breaks, report.findings) == (1, 0, ())


def test_two_allowed():
    assert_graph_clean(Shout(), torch.randn(4), max_breaks=2)


def test_one_allowed():
    assert_graph_clean(Shout(), torch.randn(4), max_breaks=1)


def scaled(x, *, factor):
    return x * factor


def test_kwargs(graph_clean):
    assert graph_clean(scaled, torch.randn(4), factor=3.0).graphs == 1
"""


@needs_torch
def test_suite_fails_on_breaking_modules_with_the_report_and_passes_clean_ones(
    pytester: pytest.Pytester,
):
    result = _run(pytester, SUITE, subprocess=True)
    result.assert_outcomes(passed=3, failed=2)
    text = result.stdout.str()
    failed = [line.split(" - ")[0] for line in result.outlines if line.startswith("FAILED")]
    assert failed == ["FAILED test_model.py::test_shout", "FAILED test_model.py::test_one_allowed"]
    header = "E           AssertionError: breaklint: Shout compiled to 2 graphs with 2 graph breaks"
    assert f"{header} (max_breaks=0)" in result.outlines
    assert f"{header} (max_breaks=1)" in result.outlines
    # Each break: where, which rule, Dynamo's GB id, why, the hints and the fix.
    assert "shout_model.py:6:9: BL401 [error, confirmed] `print()` is a side effect" in text
    assert "shout_model.py:7:20: BL101 [error, confirmed] `.item()` turns a tensor" in text
    assert "= dynamo: GB0059 Failed to trace builtin operator in Shout.forward" in text
    assert "= dynamo: GB0124 Unsupported Tensor.item() call" in text
    assert "= why: Dynamo does not support tracing `Tensor.item()`" in text
    assert "= help: keep the value a tensor" in text
    assert "= fix (unsafe): run it only when not compiling: `if not torch.compiler" in text


@needs_torch
def test_suite_runs_under_xdist_workers_with_the_same_reports(pytester: pytest.Pytester):
    """`pytest -n 2`: each xdist worker compiles its own tests; a sweep of graph_clean tests
    spreads over workers (or machines) as any test suite does."""
    pytest.importorskip("xdist", reason="pytest-xdist runs the suite on two workers")
    pytester.makepyfile(shout_model=BREAKING, test_model=SUITE)
    result = pytester.runpytest_subprocess(
        *_plugin_args(), "-p", "no:cacheprovider", "-n", "2", timeout=600
    )
    result.assert_outcomes(passed=3, failed=2)
    assert any(line.startswith("created: 2/2 workers") for line in result.outlines)
    failed = sorted(
        line.split(" - ")[0].split("] ")[-1] for line in result.outlines if "FAILED" in line
    )
    assert failed == ["FAILED test_model.py::test_one_allowed", "FAILED test_model.py::test_shout"]
    text = result.stdout.str()
    assert "AssertionError: breaklint: Shout compiled to 2 graphs with 2 graph breaks" in text
    assert "shout_model.py:7:20: BL101 [error, confirmed] `.item()` turns a tensor" in text


@needs_torch
def test_dynamo_state_is_left_as_found():
    import torch
    from torch._dynamo.utils import counters, get_compilation_metrics

    from breaklint.testing import graph_report

    def breaking(x):
        return x * x.max().item()

    counters["mine"]["kept"] = 7
    before = {name: dict(counts) for name, counts in counters.items()}
    before_metrics = list(get_compilation_metrics())
    with torch._dynamo.config.patch(recompile_limit=3):
        report = graph_report(breaking, torch.randn(4))
        assert torch._dynamo.config.recompile_limit == 3
        assert torch._dynamo.config.capture_scalar_outputs is False  # the knob rerun's
    assert report.breaks == 1
    assert {name: dict(counts) for name, counts in counters.items()} == before
    assert list(get_compilation_metrics()) == before_metrics
    del counters["mine"]


def test_skips_without_torch(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    result = _run(
        pytester,
        subprocess=False,
        test="from breaklint.testing import assert_graph_clean\n\n\n"
        "def test_fixture(graph_clean):\n    pass\n\n\n"
        "def test_helper():\n    assert_graph_clean(abs, 1)\n",
    )
    result.assert_outcomes(skipped=2)


LINT_MODEL = """
import torch


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * x.max().item()
"""


def test_breaklint_option_adds_a_lint_item_per_file(pytester: pytest.Pytester):
    pytester.makepyfile(lint_model=LINT_MODEL, test_clean="def test_nothing():\n    pass\n")
    result = pytester.runpytest_inprocess(*_plugin_args(), "-p", "no:cacheprovider", "--breaklint")
    result.assert_outcomes(passed=2, failed=1)
    failed = [line.split(" - ")[0] for line in result.outlines if line.startswith("FAILED")]
    assert failed == ["FAILED lint_model.py::breaklint"]
    assert (
        "lint_model.py:6:20: BL101 [error] `.item()` turns a tensor into a Python number: "
        "Dynamo breaks the graph here"
    ) in result.outlines


def test_without_the_option_no_lint_items(pytester: pytest.Pytester):
    pytester.makepyfile(lint_model=LINT_MODEL, test_clean="def test_nothing():\n    pass\n")
    result = pytester.runpytest_inprocess(*_plugin_args(), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
