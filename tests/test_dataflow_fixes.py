"""When a number read from a tensor into a name gets a fix: only when every use of the name
in the function takes a tensor as well (tensor arithmetic, a comparison, a `print`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Finding
from breaklint.fixer import plan_fixes


def _lint(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    return lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings


CASES = [
    ("s = t.item()\n    return x * s", True),
    ("s = float(t)\n    return (x - 1) / (s + 1e-6)", True),
    ("s = 0.5 ** 2 / t.item()\n    return x * s", True),
    ("s = int(t)\n    print('s', s)\n    return x + s", True),
    ("s = t.item()\n    if s > 0.9:\n        x = x * 2\n    return x", True),
    # a branch BL201 does not make in the graph: the break would move to its test
    ("s = t.item()\n    if s > 0.9:\n        return x\n    return x * s", False),
    ("s = t.item()\n    while s > 0.9:\n        x = x / 2\n    return x * s", False),
    # a name computed from it with a tensor is a tensor either way, whatever its uses
    ("s = t.item()\n    y = x + s * x\n    return len(y)", True),
    # a name computed from it with numbers alone decides by its own uses
    ("s = t.item()\n    h = s / 2\n    return x * h", True),
    ("s = t.item()\n    h = s / 2\n    return x[: int(h)]", False),
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
    findings = _lint(tmp_path, source)
    reads = [f for f in findings if f.code in ("BL101", "BL102")]
    assert len(reads) == 1
    assert (reads[0].fix is not None) is fixed
    if fixed:
        assert reads[0].line == 5


UNPACKED = [
    ("a, b = (t * 2).tolist()\n    return x * a - b", True),
    ("a, b = t.tolist()\n    print(a)\n    return (x > a).float() + b", True),
    ("a, b = t.tolist()\n    return x[:a] * b", False),  # one name is a slice bound
    ("a, b = t.tolist()\n    return x * a", False),  # one name never used
    ("a, *rest = t.tolist()\n    return x * a", False),  # a starred name holds a list
    ("values = t.tolist()\n    return x * values[0]", False),  # the list itself is kept
    ("(a, b), c = t.tolist()\n    return x * a * b * c", False),  # nested: rows of a 2-d one
]


@pytest.mark.parametrize(("body", "fixed"), UNPACKED)
def test_values_unpacked_from_tolist_stay_tensors_only_where_every_name_takes_one(
    tmp_path: Path, body: str, fixed: bool
) -> None:
    source = f"import torch\n\n\ndef f(x, t):\n    {body}\n\n\ncompiled = torch.compile(f)\n"
    reads = [f for f in _lint(tmp_path, source) if f.code == "BL103"]
    assert len(reads) == 1
    assert (reads[0].fix is not None) is fixed


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
    # a trace-time test joined by `and` (`torch.logical_and` cannot take a Python bool): it
    # stays a Python choice, `if y.dtype == torch.float16:` around the `where`
    (
        "def f(x):\n    y = x * 2\n    if y.dtype == torch.float16 and (y > 0).all():\n"
        "        y = y + 1\n    return y",
        True,
    ),
    # ... also after the tensor test, where it is plain (names, attributes, constants
    # compared: read first, it calls nothing), but not where it calls something
    (
        "def f(x):\n    y = x * 2\n    if (y > 0).all() and y.dtype == torch.float16:\n"
        "        y = y + 1\n    return y",
        True,
    ),
    (
        "def f(x):\n    y = x * 2\n    if (y > 0).all() and y.is_floating_point():\n"
        "        y = y + 1\n    return y",
        False,
    ),
    # ... nor with an `else` (it runs when either fails)
    (
        "def f(x):\n    y = x * 2\n    if y.dtype == torch.float16 and (y > 0).all():\n"
        "        y = y + 1\n    else:\n        y = y - 1\n    return y",
        False,
    ),
]


@pytest.mark.parametrize(("function", "fixed"), BRANCHES)
def test_a_value_branch_is_fixed_only_where_torch_where_takes_its_values(
    tmp_path: Path, function: str, fixed: bool
) -> None:
    helper = "def helper(x):\n    return x\n"
    source = f"import torch\n\n\n{helper}\n\n{function}\n\n\ncompiled = torch.compile(f)\n"
    findings = _lint(tmp_path, source)
    branches = [f for f in findings if f.code == "BL201"]
    assert len(branches) == 1
    assert (branches[0].fix is not None) is fixed


def _fixes(tmp_path: Path, body: str, code: str) -> list[str]:
    """The rewrites the `code` findings of `f(x, t)` (body as given) carry."""
    source = f"import torch\n\n\ndef f(x, t):\n    {body}\n\n\ncompiled = torch.compile(f)\n"
    return [f.fix.rewrite for f in _lint(tmp_path, source) if f.code == code and f.fix]


CHECKS = [
    # a raising check on numbers read from tensors, compared with constants, joined
    ("y = t * 2\n    if y.item() > 0.5 and not t.item():\n        raise ValueError('no')", True),
    ("if t.sum().item():\n        n = t.argmax().item()\n        raise ValueError(n)", True),
    # `int()` truncates: the check reads `y.sum().long()`, which truncates as it does
    ("y = t * 2\n    if int(y.sum()) > 0:\n        raise ValueError('no')", True),
    # the body can end without raising
    ("if t.sum().item():\n        return x\n        raise ValueError('no')", False),
    ("if t.sum().item():\n        print('no')", False),  # nothing raised
    ("if t.sum().item() > x.shape[0]:\n        raise ValueError('no')", False),  # not a number
]


@pytest.mark.parametrize(("body", "fixed"), CHECKS)
def test_a_raising_check_on_numbers_from_tensors_is_checked_in_the_graph(
    tmp_path: Path, body: str, fixed: bool
) -> None:
    found = _fixes(tmp_path, body, "BL101") + _fixes(tmp_path, body, "BL102")
    assert ("check" in found) is fixed


LOOPS = [
    ("y = x * 2\n    while y.max() > 1:\n        y = y / 2\n    return y", True),
    # a name the loop binds that holds no tensor before it
    ("y = x * 2\n    n = 0\n    while y.max() > 1:\n        y = y / 2\n        n = n + 1", False),
    # the body does more than assign: it can leave the loop
    ("y = x * 2\n    while y.max() > 1:\n        y = y / 2\n        break", False),
    ("y = x * 2\n    while y.max() > 1:\n        y = y / 2\n    else:\n        y = y + 1", False),
    # the file uses a name the fix would define
    ("y = x * 2\n    while_body = 1\n    while y.max() > 1:\n        y = y / 2", False),
]


@pytest.mark.parametrize(("body", "fixed"), LOOPS)
def test_a_loop_of_tensor_assignments_becomes_a_while_loop(
    tmp_path: Path, body: str, fixed: bool
) -> None:
    assert (_fixes(tmp_path, body, "BL201") == ["while-loop"]) is fixed


PAIRS = [
    # bound once to a name the `for` alone reads, rows used only as indices
    ("pairs = torch.cartesian_prod(torch.arange(n), torch.arange(n))\n    for p in pairs:", True),
    # the product written in the `for`, `arange(start, end)`
    ("for p in torch.cartesian_prod(torch.arange(1, n), torch.arange(n)):", True),
    # the product read again after the loop: it must stay a tensor
    ("pairs = torch.cartesian_prod(torch.arange(n), torch.arange(n))\n    for p in pairs:", False),
    # a bound that is a tensor's value
    ("for p in torch.cartesian_prod(torch.arange(x.sum()), torch.arange(n)):", False),
    # a product of other tensors than `arange`s
    ("for p in torch.cartesian_prod(x.long(), torch.arange(n)):", False),
]


@pytest.mark.parametrize(("loop", "fixed"), PAIRS)
def test_index_pairs_become_python_ints_only_where_rows_only_index(
    tmp_path: Path, loop: str, fixed: bool
) -> None:
    read_again = "pairs = " in loop and not fixed
    after = "    return c, pairs\n" if read_again else "    return c\n"
    source = (
        "import torch\n\n\ndef f(x):\n    n = x.shape[-1]\n    c = torch.zeros(n, n)\n"
        f"    {loop}\n        c[p[0], p[1]] = x[p[0]] * x[p[1]]\n{after}\n\n"
        "compiled = torch.compile(f)\n"
    )
    findings = _lint(tmp_path, source)
    rows = [f for f in findings if f.code == "BL304" and "element of a row" in f.message]
    assert len(rows) == 4
    assert {f.fix is not None for f in rows} == {fixed}


EQUALITY_CHECKS = [
    ("if not torch.equal(x, t):\n        raise ValueError('no')\n    return x", True),
    ("if all(torch.equal(a, b) for a, b in zip([x], [t])):\n        print('same')", True),
    # a tensor method that is not in place has no effect of its own
    ("if not torch.allclose(x, x.round()):\n        print('not whole')", True),
    # the body does more than tell: the compiled code would lose it
    ("if torch.equal(x, t):\n        x = x + 1\n    return x", False),
    ("if torch.equal(x, t):\n        print('same')\n    else:\n        print('no')", False),
    # the test does something of its own, which skipping it would skip
    ("if torch.equal(x.add_(1), t):\n        raise ValueError('no')", False),
    # a way out besides the raise
    (
        "if torch.equal(x, t):\n        if x.shape[0]:\n            return x\n"
        "        raise ValueError",
        False,
    ),
]


@pytest.mark.parametrize(("body", "fixed"), EQUALITY_CHECKS)
def test_an_equality_that_only_tells_or_raises_is_checked_only_when_not_compiling(
    tmp_path: Path, body: str, fixed: bool
) -> None:
    assert (_fixes(tmp_path, body, "BL105") == ["guard"]) is fixed


def test_a_guard_around_a_guarded_warning_keeps_one_guard(tmp_path: Path) -> None:
    source = (
        "import warnings\n\nimport torch\n\n\ndef f(x, t):\n    if torch.equal(x, t):\n"
        "        warnings.warn('same')\n    return x * 2\n\n\ncompiled = torch.compile(f)\n"
    )
    findings = _lint(tmp_path, source)
    fixed = [f for f in findings if f.fix is not None]
    assert {f.code for f in fixed} == {"BL105", "BL403"}
    plan = plan_fixes(fixed, unsafe=True)
    assert plan.files[0].fixed == source.replace(
        "    if torch.equal(x, t):\n        warnings.warn('same')\n",
        "    if not torch.compiler.is_compiling():\n        if torch.equal(x, t):\n"
        "            warnings.warn('same')\n",
    )


TOLD = [
    # one branch only warns, the other updates a tensor: `torch.where` while compiling
    (
        "y = x * 2\n    if (y < 0).any():\n        print('neg')\n    else:\n        y = y + 1",
        "where-told",
    ),
    (
        "y = x * 2\n    if (y < 0).any():\n        y = -y\n    else:\n        print('pos')",
        "where-told",
    ),
    # only telling, no `else`: skipped while compiling
    ("y = x * 2\n    if (y < 0).any():\n        print('neg')", "guard"),
    # the other branch binds a name that holds no tensor before: `torch.where` cannot keep it
    ("n = 0\n    if (x < 0).any():\n        print('neg')\n    else:\n        n = x.sum()", None),
    # the branch does more than tell
    ("y = x * 2\n    if (y < 0).any():\n        print('neg')\n        y = y + 1", None),
]


@pytest.mark.parametrize(("body", "rewrite"), TOLD)
def test_a_branch_that_only_tells_is_left_to_eager_runs(
    tmp_path: Path, body: str, rewrite: str | None
) -> None:
    assert _fixes(tmp_path, body, "BL201") == ([rewrite] if rewrite else [])


DICT_COPIES = [
    ("def f(x, d: dict):\n    d = copy.copy(d)", True),
    ("def f(x, d: Optional[dict] = None):\n    if d is not None:\n        d = copy.copy(d)", True),
    ("def f(x):\n    d = {'a': x}\n    e = copy.copy(d)", True),
    # may be None where it is copied: `dict(None)` raises, `copy.copy(None)` does not
    ("def f(x, d: Optional[dict] = None):\n    d = copy.copy(d)", False),
    # not known to be a dict
    ("def f(x, d):\n    d = copy.copy(d)", False),
    ("def f(x, d: dict):\n    d = d.get('inner')\n    d = copy.copy(d)", False),
]


@pytest.mark.parametrize(("function", "fixed"), DICT_COPIES)
def test_a_shallow_copy_becomes_dict_only_of_a_name_that_holds_a_dict(
    tmp_path: Path, function: str, fixed: bool
) -> None:
    source = (
        "import copy\nfrom typing import Optional\n\nimport torch\n\n\n"
        f"{function}\n    return x\n\n\ncompiled = torch.compile(f)\n"
    )
    copies = [f for f in _lint(tmp_path, source) if f.code == "BL501"]
    assert len(copies) == 1
    assert (copies[0].fix is not None) is fixed


RANGES = [
    ("t = torch.arange(2, n)\n    m = int(t[-1]) + 1", True),
    ("t = torch.arange(n)\n    m = int(t[-1])", True),
    # bound again between the range and the read
    ("t = torch.arange(2, n)\n    t = t * 2\n    m = int(t[-1])", False),
    # a step or a dtype: not `start + len(t) - 1`
    ("t = torch.arange(2, n, 2)\n    m = int(t[-1])", False),
    ("t = torch.arange(2, n, dtype=torch.float32)\n    m = int(t[-1])", False),
    # a bound read from a tensor
    ("t = torch.arange(x.sum())\n    m = int(t[-1])", False),
    ("t = torch.arange(2, n)\n    m = int(t[0])", False),
]


@pytest.mark.parametrize(("lines", "fixed"), RANGES)
def test_the_last_value_of_a_range_is_computed_only_from_its_own_binding(
    tmp_path: Path, lines: str, fixed: bool
) -> None:
    body = f"n = x.shape[0]\n    {lines}\n    return x[:m]"
    assert ("range-last" in _fixes(tmp_path, body, "BL102")) is fixed


SHORTCUTS = [
    ("same = torch.equal(a, b)\n    return a * 2 if same else a + b", "same-object"),
    (
        "if a.size() == b.size() and torch.equal(a, b):\n        a = a * 2\n    return a",
        "same-object",
    ),
    ("same = a.equal(b)\n    return combine(a, b, same)", "same-object-method"),
    # a check: compiled code would raise for equal tensors that are different objects
    (
        "same = torch.equal(a, b)\n    if not same:\n        a = a + b\n"
        "        raise ValueError\n    return a",
        None,
    ),
    ("assert torch.equal(a, b)\n    return a", None),
    ("return torch.equal(a, b)", None),  # the caller decides what the answer means
    ("return a * 2 if torch.equal(a[0], b[0]) else a", None),  # fresh tensors: never the same
]


@pytest.mark.parametrize(("body", "rewrite"), SHORTCUTS)
def test_an_equality_that_picks_a_shortcut_compares_identity_when_compiling(
    tmp_path: Path, body: str, rewrite: str | None
) -> None:
    source = f"import torch\n\n\ndef f(a, b):\n    {body}\n\n\ncompiled = torch.compile(f)\n"
    (finding,) = [f for f in _lint(tmp_path, source) if f.code == "BL105"]
    assert (finding.fix and finding.fix.rewrite) == rewrite
