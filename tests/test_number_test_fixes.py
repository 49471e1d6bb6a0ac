"""BL101 and BL102 on a branch whose test reads numbers from tensors (`if t.item() > 0:`,
`if float(t) < c:`, `if not bool(t):`, `a if t.item() > 0 else b`): the reads are dropped from
the test (a read taken for its truth becomes `t != 0`) and BL201's fix of the same branch on the
tensors is made, `torch.where` on the tensors. Where BL201 would offer no such fix (a statement
that is not an assignment, an `elif`, `int()`, which truncates) none is offered. Each fix is
proven on Dynamo 2.13 on every way of the branch: one graph, no break, the eager outputs of the
original; and fixing the fixed file again finds no read left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Finding
from breaklint.fixer import plan_fixes

SOURCE = """import torch


def scaled(x, limit=0.1):
    y = x * 2
    s = x.mean()
    {branch}
    return y


compiled = torch.compile(scaled)
"""

CASES = [
    (
        "if s.item() > 0:\n        y = y * 2\n    else:\n        y = y - 1",
        "y = torch.where(s > 0, y * 2, y - 1)",
    ),
    ("if float(s) < 0.1:\n        y = y * 2", "y = torch.where(s < 0.1, y * 2, y)"),
    (
        "if not bool(s):\n        y = y.exp()",
        "y = torch.where(torch.logical_not(s != 0), y.exp(), y)",
    ),
    ("if s.item():\n        y = y + 1", "y = torch.where(s != 0, y + 1, y)"),
    (
        "y = y * 2 if s.item() > 0 and float(s) < 3 else y",
        "y = torch.where(torch.logical_and(s > 0, s < 3), y * 2, y)",
    ),
    (
        "if s.item() > 0:\n        m = y.amax()\n        y = y / m",
        "m = y.amax()\n    y = torch.where(s > 0, y / m, y)",
    ),
    ("if s.item() > 0:\n        y *= 2", "y.copy_(torch.where(s > 0, y * 2, y))"),
    # `int()` truncates, as `.long()` does: s in (0, 1) is 0
    ("if int(s) > 0:\n        y = y * 2", "y = torch.where(s.long() > 0, y * 2, y)"),
    # compared with a value read by name; a truth read compared (`bool` is 0 or 1)
    ("if s.item() > limit:\n        y = y * 2", "y = torch.where(s > limit, y * 2, y)"),
    ("if bool(s) == 0:\n        y = y + 1", "y = torch.where((s != 0) == 0, y + 1, y)"),
    # no fix: a statement that is not an assignment, an elif chain, a value of another shape
    ("if s.item() > 0:\n        y = torch.cat([y, y])", None),
    ("if s.item() > 0:\n        print(y)\n        y = y * 2", None),
    ("if s.item() > 1:\n        y = y * 2\n    elif s.item() > 0:\n        y = y - 1", None),
]


def _findings(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    return [f for f in findings if f.code in ("BL101", "BL102")]


def _fixed(tmp_path: Path, source: str) -> str | None:
    fixes = [f for f in _findings(tmp_path, source) if f.fix is not None]
    if not fixes:
        return None
    plan = plan_fixes(fixes, unsafe=True)
    assert plan.problems == {}
    return plan.files[0].fixed


def _same_without_breaks(source: str, fixed: str, *args: Any) -> None:
    import torch

    from breaklint.dynamic import torch_shim

    results = []
    for text in (source, fixed):
        namespace: dict[str, Any] = {}
        exec(compile(text, "example.py", "exec", dont_inherit=True), namespace)
        function = namespace["scaled"]
        captured = torch_shim.capture(lambda run: run(*args), function)
        results.append((function(*args), len(captured.ops_per_graph), len(captured.breaks)))
    (before, _, breaks_before), (after, graphs, breaks) = results
    assert breaks_before > 0
    assert (graphs, breaks) == (1, 0)
    torch.testing.assert_close(after, before, rtol=0, atol=0)


@pytest.mark.parametrize(("branch", "written"), CASES)
def test_a_branch_on_numbers_read_from_tensors_chooses_in_the_graph(
    tmp_path: Path, branch: str, written: str | None
) -> None:
    source = SOURCE.format(branch=branch)
    reads = _findings(tmp_path, source)
    assert reads  # flagged either way
    fixed = _fixed(tmp_path, source)
    if written is None:
        assert fixed is None
        return
    assert fixed == source.replace(branch, written)
    assert _findings(tmp_path, fixed) == []  # idempotent: nothing is read any more
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    # each way of the branch: s > 3, 0.1 < s < 3, 0 < s < 0.1, s == 0, s < 0
    for x in (
        torch.rand(6) + 5,
        torch.rand(6) + 1,
        torch.rand(6) * 0.01,
        torch.zeros(6),
        -torch.rand(6) - 1,
    ):
        _same_without_breaks(source, fixed, x)


ASSERTED = """import torch


def scaled(x):
    s = x.mean()
    {statement}
    return x * 2


compiled = torch.compile(scaled)
"""

ASSERTS = [
    (
        'assert s.item() > -1, "too small"',
        'if torch.compiler.is_compiling():\n        torch._assert_async(s > -1, "too small")\n'
        '    else:\n        assert s.item() > -1, "too small"',
    ),
    (
        "assert not bool(s < -1) and float(s) < 1",
        "if torch.compiler.is_compiling():\n"
        "        torch._assert_async(torch.logical_and(torch.logical_not((s < -1) != 0), s < 1), "
        '"assertion failed")\n'
        "    else:\n        assert not bool(s < -1) and float(s) < 1",
    ),
    (
        "assert int(s) > -2",  # `int()` truncates, as `.long()` does
        "if torch.compiler.is_compiling():\n"
        '        torch._assert_async(s.long() > -2, "assertion failed")\n'
        "    else:\n        assert int(s) > -2",
    ),
]


@pytest.mark.parametrize(("statement", "written"), ASSERTS)
def test_an_assert_on_numbers_read_from_tensors_asserts_in_the_graph_when_compiling(
    tmp_path: Path, statement: str, written: str | None
) -> None:
    source = ASSERTED.format(statement=statement)
    fixed = _fixed(tmp_path, source)
    if written is None:
        assert fixed is None
        return
    assert fixed == source.replace(statement, written)
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    _same_without_breaks(source, fixed, torch.rand(6) - 0.5)
    _fails_both_ways(fixed, torch.full((6,), -3.0), AssertionError)


RETURNS = """import torch


def scaled(x):
    s = x.sum()
    {branch}


compiled = torch.compile(scaled)
"""

RETURN_CASES = [
    (
        "if s.item() > 0:\n        return x * 2\n    else:\n        return x - 1",
        "return torch.where(s > 0, x * 2, x - 1)",
    ),
    # an early return and the function's last
    (
        "if s.item() == 0:\n        return torch.zeros_like(x)\n    return x / s",
        "return torch.where(s == 0, torch.zeros_like(x), x / s)",
    ),
]


@pytest.mark.parametrize(("branch", "written"), RETURN_CASES)
def test_returns_on_a_number_read_become_a_returned_where(
    tmp_path: Path, branch: str, written: str
) -> None:
    source = RETURNS.format(branch=branch)
    fixed = _fixed(tmp_path, source)
    assert fixed == source.replace(branch, written)
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    for x in (torch.rand(6) + 1, -torch.rand(6) - 1, torch.zeros(6)):
        _same_without_breaks(source, fixed, x)


def test_a_raising_check_on_a_truncated_number_checks_the_long_tensor(tmp_path: Path) -> None:
    statement = 'if int(s) < -2:\n        raise ValueError("too small")'
    source = ASSERTED.format(statement=statement)
    fixed = _fixed(tmp_path, source)
    written = (
        "if torch.compiler.is_compiling():\n"
        '        torch._assert_async(torch.logical_not(s.long() < -2), "too small")\n'
        "    elif int(s) < -2:"
    )
    assert fixed == source.replace("if int(s) < -2:", written)
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    _same_without_breaks(source, fixed, torch.full((6,), -2.5))  # int(-2.5) is -2: no raise
    _fails_both_ways(fixed, torch.full((6,), -3.5), ValueError)


def _fails_both_ways(fixed: str, x: Any, raised: type[Exception]) -> None:
    """Where the check fails, eager runs of `fixed` raise what the original raised (`raised`);
    compiled runs check in the graph, which raises a RuntimeError."""
    import torch

    namespace: dict[str, Any] = {}
    exec(compile(fixed, "example.py", "exec", dont_inherit=True), namespace)
    with pytest.raises(raised):
        namespace["scaled"](x)
    torch._dynamo.reset()
    with pytest.raises(RuntimeError):
        torch.compile(namespace["scaled"], backend="eager")(x)
