"""BL201's `guard` fix of an `if` whose body only tells (`print`, `warnings.warn`): the whole
`if` is skipped while compiling, whatever its test reads, also a test that mixes a Python
flag into the tensor test (`if torch.isnan(y).any() and DEBUG:`), which `torch.where` could not
take. The fixed function compiles to one graph and returns the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.fixer import plan_fixes

SOURCE = """import torch

DEBUG = True


def render(ret):
    for k in ret:
        if {test}:
            print(f"{{k}} contains nan or inf")
    return {{k: v * 2 for k, v in ret.items()}}


compiled = torch.compile(render)
"""

TESTS = [
    "(torch.isnan(ret[k]).any() or torch.isinf(ret[k]).any()) and DEBUG",
    "DEBUG and not torch.isfinite(ret[k]).all()",
    "torch.isnan(ret[k]).any()",
]


def _fixed(tmp_path: Path, source: str) -> str:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    branch = [f for f in findings if f.code == "BL201"]
    assert [f.fix.rewrite for f in branch if f.fix] == ["guard"]
    plan = plan_fixes([f for f in findings if f.fix], unsafe=True)
    assert plan.problems == {}
    return plan.files[0].fixed


def _run(source: str) -> tuple[Any, int, int]:
    import torch

    from breaklint.dynamic import torch_shim

    namespace: dict[str, Any] = {}
    exec(compile(source, "example.py", "exec", dont_inherit=True), namespace)
    values = {"a": torch.tensor([1.0, float("nan")]), "b": torch.ones(2)}
    render = namespace["render"]
    captured = torch_shim.capture(lambda compiled: compiled(values), render)
    return render(values), len(captured.ops_per_graph), len(captured.breaks)


@pytest.mark.parametrize("test", TESTS)
def test_a_branch_that_only_tells_is_skipped_while_compiling_whatever_its_test(
    tmp_path: Path, test: str
) -> None:
    source = SOURCE.format(test=test)
    fixed = _fixed(tmp_path, source)
    assert "if not torch.compiler.is_compiling():\n            if " in fixed
    path = tmp_path / "example.py"
    path.write_text(fixed, encoding="utf-8")
    again = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    assert [f for f in again if f.fix] == []  # fixing again changes nothing
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    before, _, breaks_before = _run(source)
    after, graphs, breaks = _run(fixed)
    assert breaks_before > 0
    assert (graphs, breaks) == (1, 0)
    torch.testing.assert_close(after, before, equal_nan=True)
