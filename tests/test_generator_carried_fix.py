"""BL206 on `all(...)`/`any(...)` of a generator that an `if` tests, whose element breaks with a
fix of its own that rewrites the whole `if` (BL105's `torch.equal` check, run only when not
compiling): the BL206 finding carries that fix, `--fix` makes it once, and the fixed module is
no longer skipped by Dynamo, with the same eager outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.fixer import plan_fixes
from breaklint.rules.control_flow.graph_break_in_generator import CARRIED

SOURCE = """import warnings

import torch


class Model(torch.nn.Module):
    def __init__(self, train_inputs):
        super().__init__()
        self.train_inputs = train_inputs

    def forward(self, *inputs):
        if self.training:
            if not all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
                raise RuntimeError("You must train on the training inputs!")
            return inputs[0] * 2
        if all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
            warnings.warn("The input matches the training data", UserWarning)
        return inputs[0] * 3


compiled = torch.compile(Model((torch.ones(3),)))
"""

FIXED = SOURCE.replace(
    """            if not all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
                raise RuntimeError("You must train on the training inputs!")""",
    """            if not torch.compiler.is_compiling():
                if not all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
                    raise RuntimeError("You must train on the training inputs!")""",
).replace(
    """        if all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
            warnings.warn("The input matches the training data", UserWarning)""",
    """        if not torch.compiler.is_compiling():
            if all(torch.equal(a, b) for a, b in zip(self.train_inputs, inputs)):
                warnings.warn("The input matches the training data", UserWarning)""",
)


def test_the_carried_rewrites_are_ones_any_rule_may_make() -> None:
    pytest.importorskip("libcst")
    from breaklint.rewrites import SHARED

    assert set(SHARED) >= CARRIED


def test_a_generator_finding_carries_the_fix_of_the_if_around_it(tmp_path: Path) -> None:
    path = tmp_path / "example.py"
    path.write_text(SOURCE, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    by_line = {(f.code, f.line): f.fix for f in findings if f.code in {"BL105", "BL206"}}
    assert sorted(by_line) == [("BL105", 13), ("BL105", 16), ("BL206", 13), ("BL206", 16)]
    for line in (13, 16):
        carried = by_line[("BL206", line)]
        assert carried is not None and carried == by_line[("BL105", line)]
        assert carried.rewrite == "guard"
    plan = plan_fixes([f for f in findings if f.fix], unsafe=True)
    assert plan.problems == {}
    assert plan.files[0].fixed == FIXED
    assert plan.left == 0  # the same rewrite, asked by two findings, made once for both


def test_the_fixed_module_compiles_and_keeps_its_eager_outputs() -> None:
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    from breaklint.dynamic import torch_shim

    runs = []
    for text in (SOURCE, FIXED):
        namespace: dict[str, Any] = {}
        exec(compile(text, "example.py", "exec", dont_inherit=True), namespace)
        model = namespace["Model"]((torch.ones(3),))
        for training, x in ((True, torch.ones(3)), (False, torch.ones(3) * 2)):
            model.train(training)
            captured = torch_shim.capture(lambda run, x=x: run(x), model)
            runs.append((model(x), captured.frames_skipped, len(captured.ops_per_graph)))
    before, after = runs[:2], runs[2:]
    assert [skipped for _, skipped, _ in before] == [1, 1]  # each way skipped whole
    assert [(skipped, graphs) for _, skipped, graphs in after] == [(0, 1), (0, 1)]
    for (old, _, _), (new, _, _) in zip(before, after, strict=True):
        torch.testing.assert_close(new, old)
