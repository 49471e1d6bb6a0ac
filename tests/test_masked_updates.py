"""Masked in-place updates (`x[mask] += y`, `x[mask] = y[mask]`, BL302): which get the
`x.copy_(torch.where(...))` fix, and that the fix keeps in-place semantics under Dynamo: a view
of the tensor and a module's buffer see the update, in one graph, with the eager outputs of the
original."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.fixer import plan_fixes

LEADING = "m.reshape(m.shape + (1,) * (x.dim() - m.dim()))"
UPDATES = [
    ("x[m] += 1", f"x.copy_(torch.where({LEADING}, x + 1, x))"),
    ("x[m] -= y[m] * 2", f"x.copy_(torch.where({LEADING}, x - (y * 2), x))"),
    ("x[m] = y[m].float()", f"x.copy_(torch.where({LEADING}, y.float(), x))"),
    (
        "x.data[m] **= 2",
        "x.data.copy_(torch.where(m.reshape(m.shape + (1,) * (x.data.dim() - "
        "m.dim())), x.data ** 2, x.data))",
    ),
    ("x[x > 0] *= 0.5", "x.copy_(torch.where(x > 0, x * 0.5, x))"),
    ("x[~x.isfinite()] = y[~x.isfinite()]", "x.copy_(torch.where(~x.isfinite(), y, x))"),
    ("v = y[m]\n    x[m] += v", None),  # `v` has the selection's length, not `x`'s
    (
        "x[y > 0] -= 1",  # a mask of names and constants, read again, on the leading dimensions
        "x.copy_(torch.where((y > 0).reshape((y > 0).shape + (1,) * (x.dim() - (y > 0).dim())), "
        "x - 1, x))",
    ),
    ("x[torch.rand_like(y) > 0.5] -= 1", None),  # a call in the mask: read again, it differs
    ("x[m] += y[m] @ w", None),  # `@` is not elementwise
    ("x[m] @= w", None),  # nor is `@=`
    ("x[m] += y[m].sum(0)", None),  # nor is a reduction
    ("x[m] = y[~m]", None),  # another mask
    ("helper(x)[m] += 1", None),  # the tensor is not a name to read again
]


def _fixes(tmp_path: Path, body: str) -> tuple[list[bool], str | None]:
    """Whether each BL302 finding on the body's last line carries a fix, and the line the fixes
    write there."""
    source = (
        "import torch\n\n\ndef helper(x):\n    return x\n\n\n"
        f"def f(x, y, w):\n    m = y > 0\n    {body}\n    return x\n\n\n"
        "compiled = torch.compile(f)\n"
    )
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    line = source.splitlines().index(f"    {body.splitlines()[-1].strip()}") + 1
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    updates = [f for f in findings if f.code == "BL302" and f.line == line]
    fixable = [f for f in updates if f.fix]
    plan = plan_fixes(fixable, unsafe=True)
    written = plan.files[0].fixed.splitlines()[line - 1].strip() if plan.files else None
    return [f.fix is not None for f in updates], written


@pytest.mark.parametrize(("body", "fixed"), UPDATES)
def test_a_masked_update_is_fixed_only_where_it_is_elementwise_in_a_tensor_read_again(
    tmp_path: Path, body: str, fixed: str | None
) -> None:
    announced, written = _fixes(tmp_path, body)
    assert announced
    if fixed is None:
        assert written is None
        assert not announced[-1]  # the update itself, reported last on its line, has none
    else:
        assert all(announced)
        assert written == fixed


MODULE = """
import torch


class Decay(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.ones(2, 3, 4))

    def forward(self, x, bonus):
        keep = x.sum(-1) > 0
        first = self.state[0]  # a view: it must see the update
        self.state[keep] *= 0.5
        scratch = x * 1
        scratch[keep] += bonus[keep]
        return self.state + 0, first + 0, scratch
"""


def _run(source: str) -> tuple[object, int, int]:
    """Eager outputs of a fresh module called twice (its buffer changes), and the graphs and
    breaks of a third one compiled."""
    torch = pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(source, "<masked update>", "exec"), namespace)
    torch.manual_seed(0)
    args = (torch.randn(2, 3, 4), torch.randn(2, 3, 4))
    module = namespace["Decay"]()
    eager = [module(*args), module(*args)]
    captured = torch_shim.capture(lambda compiled: compiled(*args), namespace["Decay"]())
    return eager, len(captured.ops_per_graph), len(captured.breaks)


def test_the_fixed_update_is_in_place_on_views_and_buffers_in_one_graph(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    path = tmp_path / "decay.py"
    path.write_text(MODULE, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    plan = plan_fixes([f for f in findings if f.code == "BL302"], unsafe=True)
    fixed = plan.files[0].fixed
    assert plan.applied == 3  # the buffer's update, and the scratch update with its read
    assert "self.state.copy_(torch.where(" in fixed

    before, graphs_before, _ = _run(MODULE)
    after, graphs_after, breaks_after = _run(fixed)
    assert graphs_before > 1
    assert (graphs_after, breaks_after) == (1, 0)
    torch.testing.assert_close(after, before, rtol=0, atol=0)
