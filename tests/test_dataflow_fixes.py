"""When a number read from a tensor into a name gets a fix: only when every use of the name
in the function takes a tensor as well (tensor arithmetic, a comparison, a `print`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths

CASES = [
    ("s = t.item()\n    return x * s", True),
    ("s = float(t)\n    return (x - 1) / (s + 1e-6)", True),
    ("s = 0.5 ** 2 / t.item()\n    return x * s", True),
    ("s = int(t)\n    print('s', s)\n    return x + s", True),
    ("s = t.item()\n    if s > 0.9:\n        x = x * 2\n    return x", True),
    ("s = t.item()\n    return x[:s]", False),  # a slice bound needs the number
    ("s = t.item()\n    return x * s, s", False),  # returned as a number
    ("s = t.item()\n    s = s + 1\n    return x * s", False),  # bound again
    ("s = t.item()\n    return x * len([s])", False),  # passed to Python
    ("s = t.item()\n    return x", False),  # never used
    ("for _ in range(2):\n        s = t.item()\n        x = x * s\n    return x", False),
]


@pytest.mark.parametrize(("body", "fixed"), CASES)
def test_a_bound_number_keeps_the_tensor_only_where_every_use_takes_one(
    tmp_path: Path, body: str, fixed: bool
) -> None:
    source = f"import torch\n\n\ndef f(x, t):\n    {body}\n\n\ncompiled = torch.compile(f)\n"
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    reads = [f for f in findings if f.code in ("BL101", "BL102")]
    assert len(reads) == 1
    assert (reads[0].fix is not None) is fixed
    if fixed:
        assert reads[0].line == 5


BRANCHES = [
    # a name of no known kind that the branch replaces with a certain tensor
    ("def f(x):\n    h = helper(x)\n    if h.sum() > 0:\n        h = x.relu()\n    return h", True),
    # a parameter may hold None: `torch.where(c, a, None)` would raise
    ("def f(x, h=None):\n    if x.sum() > 0:\n        h = x.relu()\n    return h", False),
    # a submodule's value beside a certain tensor, and tensor tests joined by `not`/`or`
    (
        "def f(x):\n    y = x * 2\n    if not (y > 0).all() or y.sum() > 3:\n"
        "        y = helper(y)\n    else:\n        y = y + 1\n    return y",
        True,
    ),
    # a test against a parameter no tensor operation touched: maybe a Python bool at run time
    (
        "def f(x, n):\n    m = x.shape[0]\n    if m >= n:\n        y = x[:1]\n    else:\n"
        "        y = x[1:2]\n    return y",
        False,
    ),
    # a trace-time test joined by `and`: `torch.logical_and` cannot take a Python bool
    (
        "def f(x):\n    y = x * 2\n    if y.dtype == torch.float16 and (y > 0).all():\n"
        "        y = y + 1\n    return y",
        False,
    ),
]


@pytest.mark.parametrize(("function", "fixed"), BRANCHES)
def test_a_value_branch_is_fixed_only_where_torch_where_takes_its_values(
    tmp_path: Path, function: str, fixed: bool
) -> None:
    helper = "def helper(x):\n    return x\n"
    source = f"import torch\n\n\n{helper}\n\n{function}\n\n\ncompiled = torch.compile(f)\n"
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    branches = [f for f in findings if f.code == "BL201"]
    assert len(branches) == 1
    assert (branches[0].fix is not None) is fixed
