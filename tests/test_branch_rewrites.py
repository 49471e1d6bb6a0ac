"""BL201's rewrites of a whole branch. `where-in-place`: an `if` (and its `else`) whose
statements only update the same tensors in place becomes one `t.copy_(torch.where(...))` per
tensor. Offered only where each statement is a chain of value updates on a tensor, both branches
update the same tensors in the same order and nothing else is updated on the way; where it is
offered, the fixed module compiles to one graph and keeps its eager outputs and buffers on both
branches. The rewrites that write a branch as one statement keep its comments above it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Finding
from breaklint.fixer import plan_fixes

MODULE = """import torch


class Totals(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(()))
        self.register_buffer("total", torch.zeros(4))
        self.register_buffer("peak", torch.zeros(4))

    def forward(self, x):
        {branch}
        self.count.add_(1)
        return x - self.total / self.count, self.peak


compiled = torch.compile(Totals())
"""

CASES = [
    # one branch: the tensor keeps its value otherwise
    ("if self.count == 0:\n            self.total.copy_(x)", True),
    # several tensors, the condition reading one of them: computed once, before the updates
    (
        "if self.count == 0:\n            self.total.copy_(x)\n            self.peak.copy_(x)\n"
        "        else:\n            self.total.add_(x)\n            self.peak.clamp_(min=x)",
        True,
    ),
    # chains, and `copy_` inside one
    (
        "if self.count > 2:\n            self.total.mul_(0.5).add_(x)\n"
        "        else:\n            self.total.zero_().copy_(x).add_(1)",
        False,  # `zero_` has no out-of-place twin
    ),
    (
        "if self.count > 2:\n            self.total.mul_(0.5).add_(x)\n"
        "        else:\n            self.total.copy_(x).mul_(2)",
        True,
    ),
    # the branches update other tensors, or the same in another order
    (
        "if self.count == 0:\n            self.total.copy_(x)\n        else:\n"
        "            self.peak.copy_(x)",
        False,
    ),
    (
        "if self.count == 0:\n            self.total.copy_(x)\n            self.peak.copy_(x)\n"
        "        else:\n            self.peak.add_(x)\n            self.total.add_(x)",
        False,
    ),
    # augmented assignments, in place on the tensor
    ("if self.count == 0:\n            self.total += x", True),
    (
        "if self.count > 2:\n            self.total *= 0.5\n            self.peak -= x + 1\n"
        "        else:\n            self.total /= 2\n            self.peak += x",
        True,
    ),
    ("if self.count == 0:\n            self.total += x.add_(1)", False),
    ("if self.count == 0:\n            self.total @= x", False),
    # a random draw, a shape change, an argument that updates in place, a statement besides
    ("if self.count == 0:\n            self.total.bernoulli_(0.5)", False),
    ("if self.count == 0:\n            self.total.unsqueeze_(0)", False),
    ("if self.count == 0:\n            self.total.copy_(x.add_(1))", False),
    ("if self.count == 0:\n            self.total.copy_(x)\n            x = x * 2", False),
]


def _branch_findings(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    return [f for f in findings if f.code == "BL201"]


def _fixed(tmp_path: Path, source: str) -> str | None:
    """The file's text after BL201's fix of its one branch, None when it offers none."""
    (finding,) = _branch_findings(tmp_path, source)
    if finding.fix is None:
        return None
    plan = plan_fixes([finding], unsafe=True)
    assert plan.problems == {}
    return plan.files[0].fixed


def _checked_fix(tmp_path: Path, source: str, offered: bool) -> str | None:
    """The fixed text, where the fix is offered as `offered` says; fixing it again finds
    nothing left."""
    fixed = _fixed(tmp_path, source)
    assert (fixed is not None) is offered
    if fixed is not None:
        assert _branch_findings(tmp_path, fixed) == []
    return fixed


def _outputs_and_graphs(source: str, calls: int) -> tuple[list[Any], int, int]:
    """Eager outputs and buffers of `calls` calls, and the graphs and breaks Dynamo makes of
    as many calls of a fresh module."""
    import torch

    from breaklint.dynamic import torch_shim

    namespace: dict[str, Any] = {}
    exec(compile(source, "example.py", "exec", dont_inherit=True), namespace)
    torch.manual_seed(0)
    inputs = [torch.randn(4) for _ in range(calls)]
    eager = namespace["Totals"]()
    outputs = [eager(x) for x in inputs] + [dict(eager.named_buffers())]
    compiled = namespace["Totals"]()
    captured = torch_shim.capture(lambda run: [run(x) for x in inputs], compiled)
    return outputs, len(captured.ops_per_graph), len(captured.breaks)


@pytest.mark.parametrize(("branch", "offered"), CASES)
def test_in_place_branches_are_fixed_only_as_value_updates_of_the_same_tensors(
    tmp_path: Path, branch: str, offered: bool
) -> None:
    source = MODULE.format(branch=branch)
    fixed = _checked_fix(tmp_path, source, offered)
    if fixed is None:
        return
    assert "if " not in fixed.split("def forward")[1]
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    before, _, breaks_before = _outputs_and_graphs(source, calls=4)
    after, graphs, breaks = _outputs_and_graphs(fixed, calls=4)
    assert breaks_before > 0
    assert (graphs, breaks) == (1, 0)
    torch.testing.assert_close(after, before)


def test_several_updates_keep_a_name_the_file_already_uses(tmp_path: Path) -> None:
    branch = CASES[1][0]
    used = MODULE.format(branch=branch).replace("return x", "condition_holds = 1\n        return x")
    assert _fixed(tmp_path, used) is None


COMMENTED = """import torch


def scaled(x, t):
    y = x * 2
    if y.sum() > 0:  # the usual case
        # keep the scale
        y = y / t
    else:
        y = -y  # flip
    return y


def signed(x):
    if x.mean() > 0:
        # positive
        return x
    else:
        return -x  # negative


compiled = torch.compile(scaled), torch.compile(signed)
"""


def test_the_rewrites_of_a_whole_branch_keep_its_comments_above_the_statement(
    tmp_path: Path,
) -> None:
    path = tmp_path / "example.py"
    path.write_text(COMMENTED, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    plan = plan_fixes([f for f in findings if f.code == "BL201" and f.fix], unsafe=True)
    assert plan.problems == {}
    fixed = plan.files[0].fixed
    assert (
        "    y = x * 2\n    # the usual case\n    # keep the scale\n    # flip\n"
        "    y = torch.where(y.sum() > 0, y / t, -y)\n" in fixed
    )
    assert "    # positive\n    # negative\n    return torch.where(x.mean() > 0, x, -x)\n" in fixed


PARAMETER = """import torch


def clean(x, t):
    {branch}
    return x * 2


compiled = torch.compile(clean)
"""

PARAMETER_CASES = [
    # the test reads the parameter as a tensor: where it runs, the parameter holds one
    ("if torch.isnan(x).any():\n        x = torch.nan_to_num(x)", True),
    ("if x.abs().max() > 1:\n        x = x / x.abs().max()", True),
    # the test does not: the parameter may hold None or a number the branch leaves alone
    ("if t.sum() > 0:\n        x = x * t", False),
    ("if t.sum() > x:\n        x = t.sum()", False),
]


@pytest.mark.parametrize(("branch", "offered"), PARAMETER_CASES)
def test_a_parameter_the_test_reads_as_a_tensor_is_kept_by_a_one_armed_choice(
    tmp_path: Path, branch: str, offered: bool
) -> None:
    source = PARAMETER.format(branch=branch)
    fixed = _checked_fix(tmp_path, source, offered)
    if fixed is None:
        return
    assert "    x = torch.where(" in fixed
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    before, breaks_before = _clean_run(source)
    after, breaks_after = _clean_run(fixed)
    assert (breaks_before, breaks_after) == (1, 0)
    torch.testing.assert_close(after, before, equal_nan=True)


def _clean_run(source: str) -> tuple[Any, int]:
    """The eager output of `clean` and the breaks Dynamo takes in it."""
    import torch

    from breaklint.dynamic import torch_shim

    namespace: dict[str, Any] = {}
    exec(compile(source, "example.py", "exec", dont_inherit=True), namespace)
    x = torch.tensor([0.5, float("nan"), 3.0])
    captured = torch_shim.capture(lambda run: run(x, x), namespace["clean"])
    return namespace["clean"](x, x), len(captured.breaks)


# A function ending in `if cond: return a` and `return b`: `return torch.where(cond, a, b)`, only
# where those two statements end the function (decorated or not), each `return` alone on its lines,
# with only plain assignments between them.
EARLY = (
    "import torch\n\n\n{decorator}def f(x):\n    y = x * 2\n{ending}\n\n\n"
    "compiled = torch.compile(f)\n"
)
ENDINGS = [
    (
        "    if (y > 0).all():\n        return y\n    return -y",
        "    return torch.where((y > 0).all(), y, -y)",
    ),
    (
        "    if y.sum() > 0 and y.max() < 9:  # both\n        return y\n"
        "    # else\n    return y + 1",
        "    # both\n    # else\n"
        "    return torch.where(torch.logical_and(y.sum() > 0, y.max() < 9), y, y + 1)",
    ),
    # assignments between, run first now: only where they bind nothing the test or `a` reads
    ("    if (y > 0).all():\n        return y\n    y = y + 1\n    return y", None),
    (
        "    if (y > 0).all():  # positive\n        return y\n    z = y + 1\n    w = z * 2\n"
        "    return w",
        "    # positive\n    z = y + 1\n    w = z * 2\n    return torch.where((y > 0).all(), y, w)",
    ),
    ("    if (y > 0).all():\n        return y\n    print(y)\n    return y", None),  # not assigned
    # an `elif` chain of returns
    (
        "    if (y > 0).all():\n        return y\n    elif (y < 0).all():\n        return -y\n"
        "    return y + 1",
        "    return torch.where((y > 0).all(), y, torch.where((y < 0).all(), -y, y + 1))",
    ),
    # tuples written out, of the same length: one `torch.where` per element, the condition once
    (
        "    if (y > 0).all():\n        return y, 1.0\n    return -y, 0.0",
        "    condition_holds = (y > 0).all()\n"
        "    return torch.where(condition_holds, y, -y), torch.where(condition_holds, 1.0, 0.0)",
    ),
    (
        "    if (y > 0).all():\n        return (y, x)\n    else:\n        return (-y, x + 1)",
        "    condition_holds = (y > 0).all()\n"
        "    return (torch.where(condition_holds, y, -y), torch.where(condition_holds, x, x + 1))",
    ),
    ("    if (y > 0).all():\n        return y, None\n    return -y, y", None),  # `None`
    ("    if (y > 0).all():\n        return y, y\n    return -y, y, y", None),  # lengths
    ("    if (y > 0).all():\n        return y, *x\n    return -y, y", None),  # starred
    (
        "    if (y > 0).all():\n        return y, y\n    elif (y < 0).all():\n"
        "        return -y, y\n    return y, -y",
        None,  # a chain of tuples
    ),
    ("    if (y > 0).all():\n        return y\n    return", None),  # nothing returned
    ("    if (y > 0).all(): return y\n    return -y", None),  # not alone on its lines
]


@pytest.mark.parametrize(("ending", "written"), ENDINGS)
@pytest.mark.parametrize("decorator", ["", "@torch.no_grad()\n"])
def test_an_early_return_on_a_tensor_test_becomes_a_returned_where(
    tmp_path: Path, ending: str, written: str | None, decorator: str
) -> None:
    source = EARLY.format(decorator=decorator, ending=ending)
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    branch = [f for f in findings if f.code == "BL201"]
    assert len(branch) == 1 + ending.count("elif")  # an `elif`'s test is a finding of its own
    fixable = [f for f in branch if f.fix is not None]
    if written is None:
        assert fixable == []
        return
    plan = plan_fixes(fixable, unsafe=True)
    assert plan.problems == {}
    assert plan.files[0].fixed == source.replace(ending, written)


HOISTED = """import torch


def step(x):
    y = x * 2
    s = y.sum()
    {branch}
    return {returned}


compiled = torch.compile(step)
"""

HOISTED_CASES = [
    # intermediates of one branch, then the name both branches assign
    (
        "if y.sum() > 0:\n        s = y.abs().amax()\n        z = y / s\n    else:\n        z = y",
        "z",
        True,
    ),
    # intermediates in both branches, each its own
    (
        "if y.sum() > 0:\n        s = y.amax()\n        z = y / s\n    else:\n"
        "        t = y.amin()\n        z = y - t",
        "z",
        True,
    ),
    # no `else`: the last statement's name keeps its value otherwise
    ("if y.mean() > 0:\n        s = y.std()\n        y = y / s", "y", True),
    # an intermediate read after the `if` (it would now be bound on both ways)
    (
        "if y.sum() > 0:\n        s = y.amax()\n        z = y / s\n    else:\n        z = y",
        "z + s",
        False,
    ),
    # a chosen value reads an intermediate its branch binds after it (the old value)
    (
        "if y.sum() > 0:\n        z = y / 2\n        s = y.amax()\n    else:\n        z = y",
        "z",
        True,
    ),
    (
        "if y.sum() > 0:\n        z = y / s\n        s = y.amax()\n    else:\n        z = y",
        "z",
        False,
    ),
    # (`s` is bound before the `if`: the fix rebinds it only where nothing else reads it)
    # the other branch reads a name this branch's intermediate binds
    (
        "if y.sum() > 0:\n        s = y.amax()\n        z = y / s\n    else:\n        z = y + s",
        "z",
        False,
    ),
    # the test reads the intermediate
    (
        "if y.sum() > s:\n        s = y.amax()\n        z = y / s\n    else:\n        z = y",
        "z",
        False,
    ),
    # a chosen value reads another chosen name
    (
        "if y.sum() > 0:\n        s = y.amax()\n        a = y / s\n        b = a + 1\n    else:\n"
        "        a = y\n        b = y - 1",
        "a + b",
        False,
    ),
]


@pytest.mark.parametrize(("branch", "returned", "offered"), HOISTED_CASES)
def test_intermediate_values_of_a_branch_are_computed_before_the_choice(
    tmp_path: Path, branch: str, returned: str, offered: bool
) -> None:
    source = HOISTED.format(branch=branch, returned=returned)
    fixed = _checked_fix(tmp_path, source, offered)
    if fixed is None:
        return
    assert "if " not in fixed.split("def step")[1]
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    for sign in (1.0, -1.0):  # both ways of the branch
        _same_without_breaks(source, fixed, "step", sign * (torch.rand(6) + 0.1))


MASKED = """import torch


def patch(x, w):
    y = x * 2
    m = y < 0
    {branch}
    return y


compiled = torch.compile(patch)
"""

MASKED_CASES = [
    ("if m.any():\n        y[m] = 0.0", True),
    ("if torch.any(m):\n        y[m] = w[m]\n        y[m] += 1", True),
    ("if m.sum() > 0:\n        y[m] = -w[m].abs()", True),
    # a store through another mask, a value not read through the mask, a statement besides
    ("if m.any():\n        y[w > 0] = 0.0", False),
    ("if m.any():\n        y[m] = w", False),
    ("if m.any():\n        y[m] = 0.0\n        y = y * 2", False),
    # another test of the mask: all of it, or more than one
    ("if m.all():\n        y[m] = 0.0", False),
    ("if m.sum() > 1:\n        y[m] = 0.0", False),
]


@pytest.mark.parametrize(("branch", "offered"), MASKED_CASES)
def test_a_test_of_a_mask_around_stores_through_it_is_dropped(
    tmp_path: Path, branch: str, offered: bool
) -> None:
    source = MASKED.format(branch=branch)
    (finding,) = _branch_findings(tmp_path, source)
    assert (finding.fix is not None) is offered
    if finding.fix is None:
        return
    fixed = _fixed_fully(tmp_path, source)
    assert "if " not in fixed.split("def patch")[1]
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    w = torch.randn(6)
    for x in (torch.rand(6) + 0.1, torch.randn(6)):  # an empty mask, and one that holds
        _same_without_breaks(source, fixed, "patch", x, w)  # the stores: BL302 fixes them


def _fixed_fully(tmp_path: Path, source: str) -> str:
    """`source` after every fix of every rule, round after round as `--fix` makes them."""
    path = tmp_path / "example.py"
    for _ in range(3):
        path.write_text(source, encoding="utf-8")
        settings = Settings(root=tmp_path)
        findings = lint_paths([str(path)], settings, jobs=1, use_cache=False).findings
        plan = plan_fixes([f for f in findings if f.fix is not None], unsafe=True)
        if not plan.files:
            break
        source = plan.files[0].fixed
    return source


CHAIN = """import torch


def grade(x):
    y = x * 2
    z = y + 1
    {chain}
    return z * y


compiled = torch.compile(grade)
"""

CHAIN_CASES = [
    (
        "if y.sum() > 1:\n        z = y * 2\n    elif y.sum() < -1:\n        z = y * 3\n"
        "    else:\n        z = y",
        "z = torch.where(y.sum() > 1, y * 2, torch.where(y.sum() < -1, y * 3, y))",
    ),
    # no `else`: `z` keeps its value
    (
        "if y.sum() > 1:\n        z = y * 2\n    elif y.sum() < -1:\n        z = y * 3",
        "z = torch.where(y.sum() > 1, y * 2, torch.where(y.sum() < -1, y * 3, z))",
    ),
    # returns
    (
        "if y.sum() > 1:\n        return y\n    elif y.mean() < 0:\n        return -y\n"
        "    else:\n        return z",
        "return torch.where(y.sum() > 1, y, torch.where(y.mean() < 0, -y, z))",
    ),
    # several names: computed one after the other, the tests read none of them
    (
        "if y.sum() > 1:\n        z = y * 2\n        w = y\n    elif y.sum() < -1:\n"
        "        z = y * 3\n        w = -y\n    else:\n        z = y\n        w = y + 1",
        "z = torch.where(y.sum() > 1, y * 2, torch.where(y.sum() < -1, y * 3, y))\n"
        "    w = torch.where(y.sum() > 1, y, torch.where(y.sum() < -1, -y, y + 1))",
    ),
    (
        "if z.sum() > 1:\n        z = y * 2\n        y = y\n    elif y.sum() < -1:\n"
        "        z = y * 3\n        y = -y\n    else:\n        z = y\n        y = y + 1",
        None,
    ),
    # other names, a branch that does more, a Python test
    (
        "if y.sum() > 1:\n        z = y * 2\n    elif y.sum() < -1:\n        w = y\n"
        "    else:\n        z = y",
        None,
    ),
    (
        "if y.sum() > 1:\n        z = y * 2\n    elif y.sum() < -1:\n        print(y)\n"
        "    else:\n        z = y",
        None,
    ),
    ("if y.sum() > 1:\n        z = y * 2\n    elif y.dim() > 1:\n        z = y", None),
]


# several names: chosen at once, after the condition
SEVERAL_CASES = [
    # no `else`: each keeps its value otherwise; the test computed once
    (
        "if y.mean() > 0:\n        z = z - y\n        y = y * 2",
        "condition_holds = y.mean() > 0\n"
        "    z, y = torch.where(condition_holds, z - y, z), torch.where(condition_holds, y * 2, y)",
    ),
    (
        "if y.mean() > 0:\n        y = z\n        z = y + 1\n    else:\n        y = -z\n"
        "        z = z - 1",
        None,  # `z = y + 1` reads the `y` its branch assigned: not the tuple's old `y`
    ),
    (
        "if y.mean() > 0:\n        z = z * 3\n        y = -y\n    else:\n        z = y\n"
        "        y = y + 1",
        "condition_holds = y.mean() > 0\n"
        "    z, y = torch.where(condition_holds, z * 3, y), "
        "torch.where(condition_holds, -y, y + 1)",
    ),
]


@pytest.mark.parametrize(("chain", "written"), CHAIN_CASES + SEVERAL_CASES)
def test_an_elif_chain_or_several_names_become_wheres(
    tmp_path: Path, chain: str, written: str | None
) -> None:
    source = CHAIN.format(chain=chain)
    fixed = _written(tmp_path, source, chain, written)
    if fixed is None:
        return
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    for x in (torch.rand(6) + 1, -torch.rand(6) - 1, torch.rand(6) * 0.01):  # each way
        _same_without_breaks(source, fixed, "grade", x)


FLAGGED_CASES = [
    (
        "if flag and y.sum() > 0:\n        y = y * 2",
        "if flag:\n        y = torch.where(y.sum() > 0, y * 2, y)",
    ),
    (
        "if flag and y.sum() > 0:\n        s = y.amax()\n        y = y / s",
        "if flag:\n        s = y.amax()\n        y = torch.where(y.sum() > 0, y / s, y)",
    ),
    (
        "if flag and y.sum() > 0:\n        y *= 2",
        "if flag:\n        y.copy_(torch.where(y.sum() > 0, y * 2, y))",
    ),
    ("if flag and y.sum() > 0:\n        y = y * 2\n    else:\n        y = y - 1", None),
    ("if flag and y.sum() > 0:\n        print(y)\n        y = y * 2", None),
    # flags after the test, names, attributes and constants compared: read first instead
    (
        "if y.sum() > 0 and flag:\n        y = y * 2",
        "if flag:\n        y = torch.where(y.sum() > 0, y * 2, y)",
    ),
    (
        "if y.sum() > 0 and flag and x.dtype == torch.float32:\n        y *= 2",
        "if flag and x.dtype == torch.float32:\n"
        "        y.copy_(torch.where(y.sum() > 0, y * 2, y))",
    ),
    ("if y.sum() > 0 and bool(flag):\n        y = y * 2", None),  # a call: read only after
    ("if y.sum() > 0 and flag:\n        y = y * 2\n    else:\n        y = y - 1", None),
]


def _scaled(branch: str) -> str:
    return (
        "import torch\n\n\ndef scaled(x, flag):\n    y = x * 2\n    "
        + branch
        + "\n    return y\n\n\ncompiled = torch.compile(scaled)\n"
    )


FOLDED_CASES = [
    # a name assigned again from a value that reads it once: one value, `torch.where` of it
    (
        "if y.sum() > 0:\n        y = y * 2\n        y = y.clamp(max=1.5)",
        "y = torch.where(y.sum() > 0, (y * 2).clamp(max=1.5), y)",
    ),
    (
        "if y.sum() > 0:\n        y = y - 1\n        y = torch.abs(y) ** 2",
        "y = torch.where(y.sum() > 0, torch.abs(y - 1) ** 2, y)",
    ),
    # `s` is bound only here: no value to keep where the test does not hold
    ("if y.sum() > 0:\n        s = y.amax()\n        y = y / 2\n        y = y + s", None),
    (
        "if flag and y.sum() > 0:\n        y = y * 2\n        y = y ** 2",
        "if flag:\n        y = torch.where(y.sum() > 0, (y * 2) ** 2, y)",
    ),
    (
        "if y.sum() > 0 and flag:\n        y = y * 2\n        y = y.clamp(max=1.5)",
        "if flag:\n        y = torch.where(y.sum() > 0, (y * 2).clamp(max=1.5), y)",
    ),
    ("if y.sum() > 0:\n        y = y * 2\n        y = y * y", None),  # read twice
    ("if y.sum() > 0:\n        y = y * 2\n        z = y\n        y = y + 1", None),
    ("if y.sum() > 0:\n        y = y * 2\n        y = [v for v in y]", None),
    ("if y.sum() > 0:\n        y = y * 2  # doubled\n        y = y + 1", None),
]


@pytest.mark.parametrize(("branch", "written"), FLAGGED_CASES + FOLDED_CASES)
def test_flags_stay_a_python_choice_and_reassigned_names_fold_into_one_choice(
    tmp_path: Path, branch: str, written: str | None
) -> None:
    source = _scaled(branch)
    fixed = _written(tmp_path, source, branch, written)
    if fixed is None:
        return
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    for x in (torch.rand(6), -torch.rand(6), torch.zeros(6)):  # each way, and the edge
        _same_without_breaks(source, fixed, "scaled", x, True)
        # the flag off: the same eager outputs
        assert torch.equal(_eager(fixed, "scaled", x, False), _eager(source, "scaled", x, False))


def _eager(source: str, name: str, *args: Any) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(source, "example.py", "exec", dont_inherit=True), namespace)
    return namespace[name](*args)


def _same_without_breaks(source: str, fixed: str, name: str, *args: Any) -> None:
    """`fixed` gives the eager outputs `source` gives for `name(*args)`, and Dynamo breaks
    in `source` and not in `fixed`."""
    import torch

    from breaklint.dynamic import torch_shim

    results = []
    for text in (source, fixed):
        namespace: dict[str, Any] = {}
        exec(compile(text, "example.py", "exec", dont_inherit=True), namespace)
        function = namespace[name]
        captured = torch_shim.capture(lambda run: run(*args), function)
        results.append((function(*args), len(captured.ops_per_graph), len(captured.breaks)))
    (before, _, breaks_before), (after, graphs, breaks) = results
    assert breaks_before > 0
    assert (graphs, breaks) == (1, 0)
    torch.testing.assert_close(after, before)


def _written(tmp_path: Path, source: str, part: str, written: str | None) -> str | None:
    """`source` fixed, which writes `written` for `part`, or None where the first BL201
    finding has no fix, as `written` None says."""
    first = _branch_findings(tmp_path, source)[0]
    assert (first.fix is None) is (written is None)
    if written is None:
        return None
    fixed = _fixed_fully(tmp_path, source)
    assert fixed == source.replace(part, written)
    return fixed


STORES = """import torch


def f(x, n: int):
    x = torch.tanh(x) * 2
    m = x > 0
    out = {{}}
{branch}
    return x, out


compiled = torch.compile(f)
"""

STORE_CASES = [
    # a slice of a tensor by numbers, kept where the test does not hold
    (
        "    if x.sum() > 0:\n        x[:, 0] = 0.0",
        "    x[:, 0] = torch.where(x.sum() > 0, 0.0, x[:, 0])",
    ),
    # several: in their order, after the condition computed once
    (
        "    if x.sum() > 0:\n        x[:, 0] = 0.0\n        x[:, 1] = x.sum()",
        "    condition_holds = x.sum() > 0\n"
        "    x[:, 0] = torch.where(condition_holds, 0.0, x[:, 0])\n"
        "    x[:, 1] = torch.where(condition_holds, x.sum(), x[:, 1])",
    ),
    # with `else`: an element of a dict, the same targets in the same order
    (
        '    if x.sum() > 0:\n        out["a"] = x\n    else:\n        out["a"] = -x',
        '    out["a"] = torch.where(x.sum() > 0, x, -x)',
    ),
    ('    if x.sum() > 0:\n        out["a"] = x', None),  # a dict's key may not be set
    ("    if x.sum() > 0:\n        x[m] = 0.0", None),  # a mask: BL302's
    # the test reads the tensor the store writes: it is computed before the store
    ("    if m.any():\n        m[0] = False", "    m[0] = torch.where(m.any(), False, m[0])"),
    ('    if x.sum() > 0:\n        x[:, 0] = 0.0\n    else:\n        out["a"] = x', None),
    ("    if x.sum() > 0:\n        x[:, 0] = torch.cat([x, x])", None),  # joined
]


@pytest.mark.parametrize(("branch", "written"), STORE_CASES)
def test_stores_to_elements_slices_and_attributes_become_wheres(
    tmp_path: Path, branch: str, written: str | None
) -> None:
    rewrites = _branch_fixed(tmp_path, STORES, branch, written)
    assert rewrites == ([] if written is None else ["where-store"])


def _branch_fixed(tmp_path: Path, template: str, branch: str, written: str | None) -> list[str]:
    """The rewrites of BL201's fixes of `template` with `branch`, checking that they write
    `written` there (None: no fix)."""
    source = template.format(branch=branch)
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    fixable = [f for f in findings if f.code == "BL201" and f.fix is not None]
    if written is None:
        assert fixable == []
        return []
    plan = plan_fixes(fixable, unsafe=True)
    assert plan.problems == {}
    assert plan.files[0].fixed == template.format(branch=written)
    return [f.fix.rewrite for f in fixable if f.fix]


TESTED = """import torch


def f(x, w):
    y = x * 2
{branch}
    return a


compiled = torch.compile(f)
"""

TESTED_CASES = [
    # `y` may be a number (`x` is a parameter), but the test calls a tensor method on it
    (
        "    if y.mean() > 0:\n        a = y * 2\n    else:\n        a = y[:, 0] - 1",
        "    a = torch.where(y.mean() > 0, y * 2, y[:, 0] - 1)",
    ),
    ("    a = y if y.sum() > 0 else -y", "    a = torch.where(y.sum() > 0, y, -y)"),
    # `y` is bound again in the branch: what the test read is not what the values read
    ("    if y.mean() > 0:\n        y = w\n        a = y * 2\n    else:\n        a = y", None),
]


@pytest.mark.parametrize(("branch", "written"), TESTED_CASES)
def test_a_name_the_test_reads_as_a_tensor_is_one_in_the_branch(
    tmp_path: Path, branch: str, written: str | None
) -> None:
    assert len(_branch_fixed(tmp_path, TESTED, branch, written)) == (written is not None)
