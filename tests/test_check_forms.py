"""BL201's fixes of checks and of truths drawn by `all()`/`any()` whose operands may be Python
values at run time: `check-any` (a raising `if`), `assert-check` (an `assert`) and `stacked`
(`all(... for ...)`). Each keeps the eager answer whatever the operands are (tensors, Python
numbers, an empty draw) and compiles to one graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.fixer import plan_fixes


def _fixed(tmp_path: Path, source: str) -> str | None:
    """The file's text after BL201's fixes, None when it offers none."""
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    fixable = [f for f in findings if f.code == "BL201" and f.fix is not None]
    if not fixable:
        return None
    plan = plan_fixes(fixable, unsafe=True)
    assert plan.problems == {}
    (file,) = plan.files
    return file.fixed


def _function(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(source, "example.py", "exec", dont_inherit=True), namespace)
    return namespace[name]


def _graphs(function: Any, *args: Any) -> tuple[int, int]:
    import torch._dynamo as dynamo

    dynamo.reset()
    explained = dynamo.explain(function)(*args)
    return explained.graph_count, explained.graph_break_count


HEAD = "import torch\n\n\n"
TAIL = "\n\ncompiled = torch.compile(f)\n"

ASSERTED = (
    HEAD
    + (
        "def f(t0, t, t1, y):\n"
        '    assert t0 <= t <= t1, f"t={t} outside"\n'
        "    return y * (t - t0)\n"
    )
    + TAIL
)
CHECKED = (
    HEAD
    + (
        "def f(t0, t, t1, y):\n"
        "    if t0 > t1:\n"
        '        raise ValueError(f"start {t0} after end {t1}")\n'
        "    return y * (t - t0)\n"
    )
    + TAIL
)
DRAWN = (
    HEAD
    + (
        "def f(ts, y):\n"
        "    rising = all(a < b for a, b in zip(ts[:-1], ts[1:]))\n"
        "    return y * rising\n"
    )
    + TAIL
)

# Tensors and Python numbers as the operands, for the same eager answer before and after.
OPERANDS = [(0.0, 0.5, 1.0), (2.0, 0.5, 1.0)]


@pytest.mark.parametrize("source", [ASSERTED, CHECKED], ids=["assert", "if"])
@pytest.mark.parametrize("operands", OPERANDS, ids=["ordered", "unordered"])
@pytest.mark.parametrize("as_tensors", [True, False], ids=["tensors", "numbers"])
def test_eager_answers_are_kept_for_tensors_and_numbers(
    tmp_path: Path, source: str, operands: tuple[float, ...], as_tensors: bool
) -> None:
    torch = pytest.importorskip("torch")
    fixed = _fixed(tmp_path, source)
    assert fixed is not None
    values = [torch.tensor(v) if as_tensors else v for v in operands]
    y = torch.arange(3.0)

    def outcome(text: str) -> Any:
        try:
            return _function(text, "f")(*values, y)
        except (AssertionError, ValueError) as error:
            return type(error)

    before, after = outcome(source), outcome(fixed)
    if isinstance(before, type):
        assert after is before
    else:
        torch.testing.assert_close(after, before, check_dtype=False)


@pytest.mark.parametrize(
    ("source", "tensors"),
    [(ASSERTED, 3), (CHECKED, 3), (DRAWN, 1)],
    ids=["assert", "if", "all"],
)
def test_fixed_checks_compile_to_one_graph(tmp_path: Path, source: str, tensors: int) -> None:
    torch = pytest.importorskip("torch")
    fixed = _fixed(tmp_path, source)
    assert fixed is not None
    operands = [torch.tensor(0.0), torch.tensor(0.5), torch.tensor(1.0)]
    args = (*operands, torch.arange(3.0)) if tensors == 3 else (torch.stack(operands), 2.0)
    assert _graphs(_function(source, "f"), *args) != (1, 0)
    assert _graphs(_function(fixed, "f"), *args) == (1, 0)


@pytest.mark.parametrize("ts", [[0.0, 0.5, 1.0], [0.0, 2.0, 1.0]], ids=["rising", "not"])
@pytest.mark.parametrize("as_tensor", [True, False], ids=["tensor", "list"])
def test_a_draw_keeps_its_answer_for_a_tensor_and_a_list(
    tmp_path: Path, ts: list[float], as_tensor: bool
) -> None:
    torch = pytest.importorskip("torch")
    fixed = _fixed(tmp_path, DRAWN)
    assert fixed is not None
    values = torch.tensor(ts) if as_tensor else ts
    y = torch.arange(3.0)
    before, after = _function(DRAWN, "f")(values, y), _function(fixed, "f")(values, y)
    torch.testing.assert_close(after, before, check_dtype=False)


def test_an_empty_draw_gives_the_builtins_answer(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    source = (
        HEAD
        + (
            "def f(ts):\n"
            "    rising = all(a < b for a, b in zip(ts[:-1], ts[1:]))\n"
            "    return rising, any(a > b for a, b in zip(ts[:-1], ts[1:]))\n"
        )
        + TAIL
    )
    fixed = _fixed(tmp_path, source)
    assert fixed is not None
    assert "torch.as_tensor(False)]).any()" in fixed
    for ts in (torch.tensor([1.0]), torch.tensor([]), torch.tensor([1.0, 2.0, -1.0])):
        before, after = _function(source, "f")(ts), _function(fixed, "f")(ts)
        assert [bool(a) for a in after] == list(before)


def test_a_chained_comparison_of_expressions_gets_no_fix(tmp_path: Path) -> None:
    # `b` would be computed twice: `t0 <= t.sum() <= t1`
    source = (
        HEAD
        + ('def f(t0, t, t1):\n    assert t0 <= (t * 2).sum() <= t1, "outside"\n    return t\n')
        + TAIL
    )
    assert _fixed(tmp_path, source) is None
