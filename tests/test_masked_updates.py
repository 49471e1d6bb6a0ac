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
    # A new axis right after the masked dimensions: the whole tensor gets it after the mask's
    # dimensions (`[..., None]` last stays as it is).
    ("x[m] = w[m, None] * x[m]", f"x.copy_(torch.where({LEADING}, w.unsqueeze(m.dim()) * x, x))"),
    (
        "x[m] += 2 * w[m][:, None]",
        f"x.copy_(torch.where({LEADING}, x + (2 * w.unsqueeze(m.dim())), x))",
    ),
    ("x[m] = w[m][..., None] * x[m]", f"x.copy_(torch.where({LEADING}, w[..., None] * x, x))"),
    ("x[m] = w[m, 0] * x[m]", None),  # an index after the mask: not a new axis
    ("x[m] = w[m][0] * x[m]", None),  # an element of the selection
    ("x[x > 0] *= w[x > 0, None]", None),  # a mask of `x`'s shape leaves no dimension after it
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
    exec(compile(source, "<masked update>", "exec", dont_inherit=True), namespace)
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


# A computation on the subset a mask selects (`masked-subset`): the body of
# `f(x, w, lo, hi)` after `m = (x >= lo) & (x <= hi)` and `out = torch.zeros_like(x)`, and the
# lines the fix writes for its reads and writes back, or None where the form does not hold.
SUBSETS = [
    (
        "y = torch.log1p(-x[m] * w[m, :])\n    out[m] = y",
        "y = torch.log1p(-x.clamp(lo, hi) * w)\n    out.copy_(torch.where(m, y, out))",
    ),
    (
        "y = helper(x[m]) * 2\n    out[m] = y.to(out.dtype)",
        "y = helper(x.clamp(lo, hi)) * 2\n    out.copy_(torch.where(m, y.to(out.dtype), out))",
    ),
    ("y = x[m] * 2\n    out[m] = y\n    return y", None),  # returned: it has the subset's size
    ("y = x[m]\n    out[m] = y / y.sum()", None),  # a reduction across the selected elements
    ("out[m] = x[m] * w[m, :].sum(-1)", None),  # `.sum(-1)` too: `-1` may be the selected one
    ("y = x[m]\n    n = len(y)\n    out[m] = y", None),  # the subset's size
    ("y = x[m]\n    out.cache = y\n    out[m] = y", None),  # stored elsewhere
    ("y = x[m]\n    out[m] += y", None),  # written in place through the mask
    ("y = x[m]\n    out[m] = y\n    out[m] = torch.ones(3)", None),  # a write of another size
    ("lo = lo * 2\n    y = x[m]\n    out[m] = y", None),  # the range's bound changes after
    ("y = [v for v in x[m]]\n    out[m] = torch.stack(y)", None),  # iterated over
    ("i = x[m].long()\n    out[m] = w[i]", None),  # an index: discarded ones may be out of range
    ("out[m] = x[m].mul_(2)", None),  # in place: a copy before, read whole it is `x`
    ("y = x[m]\n    y += 1\n    out[m] = y", None),  # likewise
]


def _subset(tmp_path: Path, body: str) -> tuple[bool, str]:
    """Whether a BL302 finding of `f` carries the `masked-subset` fix, and the body `--fix
    --unsafe-fixes` writes with it."""
    source = (
        "import torch\n\n\ndef helper(x):\n    return x\n\n\n"
        "def f(x, w, lo, hi):\n    m = (x >= lo) & (x <= hi)\n    out = torch.zeros_like(x)\n"
        f"    {body}\n    return out\n\n\ncompiled = torch.compile(f)\n"
    )
    path = tmp_path / "subset.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    subset = [
        f for f in findings if f.code == "BL302" and f.fix and f.fix.rewrite == "masked-subset"
    ]
    plan = plan_fixes(subset, unsafe=True)
    fixed = plan.files[0].fixed if plan.files else source
    start = fixed.index("out = torch.zeros_like(x)\n") + len("out = torch.zeros_like(x)\n    ")
    return bool(subset), fixed[start : fixed.index("\n    return out")]


@pytest.mark.parametrize(("body", "fixed"), SUBSETS)
def test_a_computation_on_a_masked_subset_is_fixed_only_where_it_stays_on_the_subset(
    tmp_path: Path, body: str, fixed: str | None
) -> None:
    announced, written = _subset(tmp_path, body)
    assert announced is (fixed is not None)
    assert written == (fixed or body)
    if fixed is not None:
        assert _subset(tmp_path, written) == (False, written)  # fixing again changes nothing


SPLINE = """
import torch


def inner(x, w):
    return torch.log1p(-(x * w) ** 2)  # defined where |x * w| < 1


def spline(x, w):
    inside = (x >= -0.5) & (x <= 0.5)
    out = x.clone()
    out[inside] = inner(x[inside], w[inside])
    return out
"""


def test_the_subset_fix_keeps_outputs_and_gradients_where_discarded_elements_leave_the_domain(
    tmp_path: Path,
) -> None:
    """Outside the range `log1p` gives NaN; the clamp keeps the discarded elements inside it, so
    the gradients through `torch.where` stay those of the original, in one graph."""
    torch = pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    path = tmp_path / "spline.py"
    path.write_text(SPLINE + "\n\ncompiled = torch.compile(spline)\n", encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    plan = plan_fixes([f for f in findings if f.code == "BL302" and f.fix], unsafe=True)
    fixed = plan.files[0].fixed
    assert "out.copy_(torch.where(inside, inner(x.clamp(-0.5, 0.5), w), out))" in fixed

    def run(source: str) -> tuple[list[object], int, int]:
        namespace: dict = {}
        exec(compile(source, "<subset>", "exec", dont_inherit=True), namespace)
        x = (torch.randn(64) * 2).requires_grad_()
        w = torch.rand(64).requires_grad_()
        out = namespace["spline"](x, w)
        out.sum().backward()
        captured = torch_shim.capture(lambda compiled: compiled(x, w), namespace["spline"])
        return [out, x.grad, w.grad], len(captured.ops_per_graph), len(captured.breaks)

    torch.manual_seed(0)
    before, graphs_before, _ = run(SPLINE)
    torch.manual_seed(0)
    after, graphs_after, breaks_after = run(fixed)
    assert graphs_before > 1
    assert (graphs_after, breaks_after) == (1, 0)
    torch.testing.assert_close(after, before, rtol=1e-6, atol=1e-6)
    assert not any(t.isnan().any() for t in after)  # type: ignore[attr-defined]


REDUCTIONS = [
    ("torch.max(x[keep])", "torch.max(torch.where(keep, x, -torch.inf))"),
    ("x[keep].amin()", "torch.where(keep, x, torch.inf).amin()"),
    ("torch.sum(x[keep]) + 1", "torch.sum(torch.where(keep, x, 0)) + 1"),
    ("torch.mean(x[keep])", "(torch.where(keep, x, 0).sum() / keep.sum())"),
    ("torch.max(x[keep], 0)", None),  # along a dimension: a value and an index per slice
    ("x[keep].max(dim=0)", None),
]


@pytest.mark.parametrize(("expression", "fixed"), REDUCTIONS)
def test_a_masked_read_reduced_at_once_is_reduced_over_a_where(
    tmp_path: Path, expression: str, fixed: str | None
) -> None:
    """The elements left out, NaN ones here, are replaced by the reduction's neutral value
    (minus infinity for `max`): one graph, the eager outputs of the original."""
    source = (
        "import torch\n\n\ndef f(x):\n    keep = ~torch.isnan(x)\n"
        f"    return {expression}\n\n\ncompiled = torch.compile(f)\n"
    )
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    reads = [f for f in findings if f.code == "BL302" and f.line == 6]
    assert len(reads) == 1
    assert (reads[0].fix is None) is (fixed is None)
    if fixed is None:
        return
    after = plan_fixes(reads, unsafe=True).files[0].fixed
    assert after == source.replace(expression, fixed)
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    from breaklint.dynamic import torch_shim

    x = torch.tensor([0.5, float("nan"), -2.0, 3.0])
    results = []
    for text in (source, after):
        namespace: dict = {}
        exec(compile(text, "example.py", "exec", dont_inherit=True), namespace)
        captured = torch_shim.capture(lambda run: run(x), namespace["f"])
        results.append((namespace["f"](x), len(captured.ops_per_graph), len(captured.breaks)))
    (before, _, breaks_before), (value, graphs, breaks) = results
    assert breaks_before > 0 and (graphs, breaks) == (1, 0)
    torch.testing.assert_close(value, before)
