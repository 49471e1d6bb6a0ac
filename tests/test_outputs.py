"""Eager outputs compared across runs (breaklint.dynamic.outputs, which `--fix` with probes and
benchmarks/fix_rate.py use): value by value inside containers and objects, NaN equal to NaN at
the same place, tolerances by dtype; and the fix-rate benchmark's rerun of the unfixed code,
which reports probes whose outputs it does not reproduce as nondeterministic, and sorts breaks
by where a fix could remove them."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import REPO

torch = pytest.importorskip("torch", reason="comparing outputs needs torch")

from breaklint.dynamic.outputs import ObjectOf, difference, flatten  # noqa: E402


def _differ(got: Any, expected: Any) -> str | None:
    return difference(flatten(got), flatten(expected))


def test_nan_equals_nan_at_the_same_place_only():
    nan = float("nan")
    assert _differ(torch.tensor([1.0, nan]), torch.tensor([1.0, nan])) is None
    moved = _differ(torch.tensor([nan, 1.0]), torch.tensor([1.0, nan]))
    assert moved is not None and moved.startswith("the output: Tensor-likes are not close!")
    assert _differ({"loss": nan}, {"loss": nan}) is None
    assert _differ({"loss": nan}, {"loss": 1.0}) == "['loss']: nan instead of 1.0"


@pytest.mark.parametrize(
    ("dtype", "within", "beyond"),
    [(torch.float32, 1e-6, 1e-4), (torch.float16, 5e-4, 5e-3), (torch.bfloat16, 1e-2, 5e-2)],
)
def test_tolerance_follows_the_dtype(dtype, within, beyond):
    base = torch.full((4,), 1.0, dtype=dtype)
    assert _differ(base + within, base) is None
    assert _differ(base + beyond, base) is not None


def test_integers_and_dtypes_and_shapes_are_exact():
    assert _differ(torch.tensor([1, 2]), torch.tensor([1, 3])) is not None
    assert _differ(torch.zeros(2), torch.zeros(2, dtype=torch.float64)) == (
        "the output: a tensor (2) float32 instead of a tensor (2) float64"
    )
    assert _differ(torch.zeros(2, 1), torch.zeros(2)) == (
        "the output: a tensor (2, 1) float32 instead of a tensor (2) float32"
    )
    assert _differ(torch.tensor(1.0), 1.0) == (
        "the output: a tensor () float32 instead of a float (1.0)"
    )


@dataclasses.dataclass
class _Output:  # as a model output: a dataclass whose fields hold tensors and a cache
    logits: Any
    cache: Any = None


class _Layer:
    def __init__(self, keys: Any) -> None:
        self.keys = keys
        self.initialised = True


class _Cache:  # as a key/value cache: state in attributes, a list of layers
    def __init__(self, *keys: Any) -> None:
        self.layers = [_Layer(k) for k in keys]


def test_nested_outputs_compare_the_tensors_inside_objects_not_their_identity():
    def run(shift: float) -> tuple[Any, ...]:
        keys = torch.arange(6.0).reshape(2, 3)
        return (_Output(torch.ones(2), _Cache(keys, keys + shift)), {"aux": [torch.zeros(1)]})

    assert _differ(run(0.0), run(0.0)) is None
    assert _differ(run(1.0), run(0.0)) == (
        "[0].cache.layers[1].keys: Tensor-likes are not close! Mismatched elements: 6 / 6 "
        "(100.0%) Greatest absolute difference: 1.0 at index (0, 0) (up to 1e-05 allowed) "
        "Greatest relative difference: inf at index (0, 0) (up to 1.3e-06 allowed)"
    )
    paths = flatten(run(0.0))
    assert paths["[0]"] == ObjectOf("_Output")
    assert paths["[0].cache"] == ObjectOf("_Cache")
    assert paths["[0].cache.layers[0].initialised"] is True


def test_missing_and_new_values_and_other_types_differ():
    assert _differ({"a": torch.zeros(1)}, {"a": torch.zeros(1), "b": 2}) == (
        "['b']: missing (was a int (2))"
    )
    assert _differ((1, "x"), (1, "y")) == "[1]: 'x' instead of 'y'"
    assert _differ(_Cache(), _Layer(None)) is not None


def test_an_object_that_holds_itself_is_read_once():
    cache = _Cache(torch.zeros(1))
    cache.layers.append(cache)  # type: ignore[arg-type]
    assert flatten(cache)[".layers[1]"] == ObjectOf("_Cache")
    assert _differ(cache, cache) is None


BENCHMARKS = REPO / "benchmarks"


def _fix_rate() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))  # fix_rate imports its sibling library_accuracy
    spec = importlib.util.spec_from_file_location("fix_rate", BENCHMARKS / "fix_rate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["fix_rate"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# One probe gives NaN and a cache object, the same on every seeded run; one draws from a
# generator seeded by the clock, so that two unfixed runs already differ.
EAGER_PROBES = """
import time

import torch


class Cache:
    def __init__(self, keys):
        self.keys = keys


def steady(x):
    print("a model that prints")  # on stdout, before the benchmark's answer
    return {"log": torch.log(x), "cache": Cache(x * 2)}


def unsteady(x):
    generator = torch.Generator().manual_seed(time.time_ns())
    return x + torch.rand(x.shape, generator=generator)


def probe_steady():
    return steady, (torch.randn(8),)


def probe_unsteady():
    return unsteady, (torch.randn(8),)
"""


def test_the_benchmark_finds_probes_the_unfixed_code_does_not_reproduce(tmp_path: Path):
    fix_rate = _fix_rate()
    (tmp_path / "src").mkdir()
    (tmp_path / "eager_probes.py").write_text(textwrap.dedent(EAGER_PROBES))
    assert fix_rate.eager_outputs(sys.executable, tmp_path, "save") == {}
    unsteady = fix_rate.eager_outputs(sys.executable, tmp_path, "compare")
    assert list(unsteady) == ["probe_unsteady"]
    assert unsteady["probe_unsteady"].startswith("the output: Tensor-likes are not close!")
    # After a fix: the steady probe decides; the unsteady one proves nothing either way.
    assert fix_rate.outputs_verdict(unsteady, dict(unsteady), 2) == fix_rate.EQUAL
    changed = {**unsteady, "probe_steady": "['log']: ..."}
    assert fix_rate.outputs_verdict(unsteady, changed, 2) == "probe_steady: ['log']: ..."
    assert fix_rate.outputs_verdict(unsteady, dict(unsteady), 1) == fix_rate.NONDETERMINISTIC


def test_the_benchmark_says_when_the_probes_did_not_run(tmp_path: Path):
    fix_rate = _fix_rate()
    (tmp_path / "src").mkdir()
    (tmp_path / "eager_probes.py").write_text("raise RuntimeError('no model here')\n")
    failed = fix_rate.eager_outputs(sys.executable, tmp_path, "save")
    assert list(failed) == [fix_rate.EAGER_FAILED]
    verdict = fix_rate.outputs_verdict(failed, failed, 1)
    assert verdict.startswith("the probes did not run eagerly: ")
    assert verdict.endswith("RuntimeError: no model here")


def _report(*findings: dict[str, object]) -> subprocess.CompletedProcess[str]:
    document = {"findings": list(findings), "probes": [{"probe": "p", "status": "ok"}]}
    return subprocess.CompletedProcess([], 0, json.dumps(document), "")


def _dynamic(path: str, line: int, **more: object) -> dict[str, object]:
    finding = {"code": "BL900", "path": path, "line": line, "status": "confirmed"}
    return {**finding, "origin": "dynamic", "gb_type": "Dynamic shape operator", **more}


def test_the_benchmark_sorts_breaks_by_where_a_fix_could_remove_them(tmp_path: Path):
    """A break in the target's code is fixable in source; one a config removes (as breaklint
    measured it) is fixable too but counted apart; one in another package, or in the probes
    written into the copy, is not the target's to fix."""
    fix_rate = _fix_rate()
    (tmp_path / "src" / "probes").mkdir(parents=True)
    (tmp_path / "src" / "model.py").write_text("y = x[x > 0]\nz = x.nonzero()\n")
    (tmp_path / "src" / "probes" / "probes.py").write_text("a = b.item()\n")
    (tmp_path / "site.py").write_text("if t: pass\n")
    target = fix_rate.Target("t", (), False, "", "", probes_folder="src/probes")
    knob = "capture_dynamic_output_shape_ops"
    found, failed = fix_rate.breaks(
        _report(
            _dynamic("src/model.py", 1),
            _dynamic("src/model.py", 2, config_knob=knob),
            _dynamic("src/probes/probes.py", 1),
            _dynamic("site.py", 1),
        ),
        tmp_path,
        target,
    )
    assert failed == []
    by_text = {b.text: b for b in found}
    # Probes beside the code (a library's, written in the work folder) leave it whole.
    beside = fix_rate.Target("t", (), False, "", "")
    found_beside, _ = fix_rate.breaks(_report(_dynamic("src/model.py", 1)), tmp_path, beside)
    assert [b.unfixable for b in found_beside] == [None]
    assert by_text["y = x[x > 0]"].unfixable is None and by_text["y = x[x > 0]"].config is None
    assert by_text["z = x.nonzero()"].unfixable is None
    assert by_text["z = x.nonzero()"].config == knob
    assert by_text["a = b.item()"].unfixable == fix_rate.OUTSIDE
    assert by_text["if t: pass"].unfixable == fix_rate.OUTSIDE
    # Of two fixable breaks one went, the one a config removes stayed.
    result = fix_rate.Result(
        "t", "h", before=4, flagged=0, announced=0, fixable=2, removed=1, configurable=1,
        removed_configurable=0, after=3, new=0, outputs=fix_rate.EQUAL,
    )  # fmt: skip
    assert (result.rate, result.rate_without_config) == (0.5, 1.0)


def test_the_benchmark_runs_only_the_probes_that_broke():
    fix_rate = _fix_rate()
    probes = textwrap.dedent(
        """
        import torch


        def _model():
            return torch.nn.Linear(2, 2)


        def probe_broke():
            return _model(), (torch.randn(2),)


        @staticmethod
        def probe_clean():
            return _model(), (torch.randn(2),)
        """
    )
    kept = fix_rate.only_probes(probes, {"probe_broke"})
    assert "def probe_broke" in kept and "def _model" in kept
    assert "probe_clean" not in kept and "@staticmethod" not in kept
    compile(kept, "probes.py", "exec")


def test_the_benchmark_says_why_a_fixable_break_was_left():
    fix_rate = _fix_rate()

    def left(codes: list[str], announced: bool, undone: list[str]) -> str:
        entry = fix_rate.Break("src/m.py", 7, "if t:", codes, "", announced)
        return fix_rate.why_left(entry, undone)

    kept = "src/m.py: fixes (BL201 at line 9) undone, those that verified (BL201 at line 7) kept"
    assert left(["BL900"], False, []) == fix_rate.NO_FINDING
    assert left(["BL201", "BL900"], False, []) == fix_rate.NO_FIX
    assert left(["BL201"], True, ["src/m.py: fixes (BL201 at line 7) undone"]) == fix_rate.UNDONE
    assert left(["BL201"], True, [kept]) == fix_rate.STAYS
