"""Fixes that change how a value or a call is written, not what it computes: `np.prod` of sizes
as `torch.Size(...).numel()` (BL601), a breaking method called from its object's class (BL208),
a result taken instead of written into an empty tensor (BL305). Each is offered only where the
rewrite means the same call."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Finding
from breaklint.fixer import plan_fixes
from breaklint.rules.control_flow.method_of_new_object import MethodOfNewObject


def _lint(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    return lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings


def _fixed(tmp_path: Path, source: str, code: str) -> str | None:
    """The file's text after the rule's fixes, None when it offers none."""
    findings = [f for f in _lint(tmp_path, source) if f.code == code and f.fix is not None]
    if not findings:
        return None
    plan = plan_fixes(findings, unsafe=True)
    assert plan.problems == {}
    (file,) = plan.files
    return file.fixed


PRODUCTS = [
    ("np.prod(x.shape[1:])", "torch.Size(x.shape[1:]).numel()"),
    ("np.prod(x.shape[-2:])", "torch.Size(x.shape[-2:]).numel()"),
    ("np.prod([2, x.shape[0]])", "torch.Size([2, x.shape[0]]).numel()"),
    ("np.prod(x.shape[1:], dtype=np.int64)", None),  # numpy's own dtype: not a Python int
    ("np.prod(np.array([2, 3]))", None),  # an array's values, not sizes
    ("np.prod([2.0, 3])", None),  # a float: `torch.Size` takes ints only
    ("np.prod(spatial)", "torch.Size(spatial).numel()"),  # `b, *spatial = x.shape`
    ("np.prod(rest)", None),  # `a, *rest = ws`: not sizes
]


@pytest.mark.parametrize(("product", "written"), PRODUCTS)
def test_a_product_of_sizes_becomes_a_python_int_only_for_sizes(
    tmp_path: Path, product: str, written: str | None
) -> None:
    source = (
        "import numpy as np\nimport torch\n\n\ndef f(x, ws):\n"
        "    b, *spatial = x.shape\n    a, *rest = ws\n"
        f"    n = {product}\n    for _ in range(n):\n        x = x + 1\n    return x\n\n\n"
        "compiled = torch.compile(f)\n"
    )
    fixed = _fixed(tmp_path, source, "BL601")
    if written is None:
        assert fixed is None
    else:
        assert fixed == source.replace(product, written)


# The rule's own example: its call of a new object's breaking method is replaced by each case's.
EXAMPLE = MethodOfNewObject.fix_examples[0].before
CALL = "    return Scaler(3).run(y) + 1"

CALLS = [
    (CALL, "    return type(instance := Scaler(3)).run(instance, y) + 1"),
    (
        "    scaler = Scaler(3)\n    return scaler.run(y, ) + 1",
        "    scaler = Scaler(3)\n    return type(scaler).run(scaler, y, ) + 1",
    ),
    # `instance` is taken: the assignment expression would rebind it
    ("    instance = y + 1\n    return Scaler(3).run(instance) + 1", None),
    # in a comprehension `instance := ...` would bind outside it, in a lambda inside it
    ("    return [Scaler(k).run(y) for k in (1, 2)]", None),
]


@pytest.mark.parametrize(("call", "written"), CALLS)
def test_a_method_of_a_new_object_is_called_from_its_class(
    tmp_path: Path, call: str, written: str | None
) -> None:
    source = EXAMPLE.replace(CALL, call)
    assert any(f.code == "BL208" for f in _lint(tmp_path, source))  # found either way
    expected = None if written is None else EXAMPLE.replace(CALL, written)
    assert _fixed(tmp_path, source, "BL208") == expected
    if expected is not None:
        assert _fixed(tmp_path, expected, "BL208") is None  # fixing again changes nothing


CHECK_CALLS = [
    ("require(x.all().item(), 'x')", True),  # a function by its name, the answer unused
    ("checks.require(ok=bool(x.all()), message='x')", True),  # from a module, by keyword
    ("require((x > 0).sum().item() > 2 or not x.any().item(), 'x')", True),
    ("self.flags.append(x.all().item())", False),  # a method: it changes its object
    ("ok = require(x.all().item(), 'x')", False),  # the answer is read
    ("require(x.sum().item() + 1, 'x')", False),  # arithmetic: not a truth
]


@pytest.mark.parametrize(("statement", "guarded"), CHECK_CALLS)
def test_a_check_call_runs_only_in_eager_code_only_where_its_answer_is_unused(
    tmp_path: Path, statement: str, guarded: bool
) -> None:
    """`check(t.all().item(), msg)`: compiled runs skip a call that only takes a truth read from
    a tensor and whose answer nothing reads; eager runs call it as written."""
    source = (
        "import checks\nimport torch\nfrom checks import require\n\n\n"
        "class Checked(torch.nn.Module):\n    def forward(self, x):\n"
        f"        {statement}\n        return x\n\n\ncompiled = torch.compile(Checked())\n"
    )
    code = "BL102" if "bool(" in statement else "BL101"
    fixed = _fixed(tmp_path, source, code)
    if guarded:
        wrapped = f"        if not torch.compiler.is_compiling():\n            {statement}\n"
        assert fixed == source.replace(f"        {statement}\n", wrapped)
    else:
        assert fixed is None


_CAUGHT = """
import contextlib
import warnings

import torch


def scaled(x):
    {manager}
        {before}
        print("scaling")
    return x * 2


compiled = torch.compile(scaled)
"""

CAUGHT = [
    ("with warnings.catch_warnings():", "pass", True),
    (
        "with warnings.catch_warnings():",
        "if not torch.compiler.is_compiling():\n            warnings.simplefilter('ignore')",
        True,
    ),
    # the filter change would outlast the block in compiled runs
    ("with warnings.catch_warnings():", "warnings.simplefilter('ignore')", False),
    ("with warnings.catch_warnings(record=True) as caught:", "pass", False),  # reads the list
    ("with contextlib.suppress(ValueError):", "pass", False),  # would raise what it swallows
]


@pytest.mark.parametrize(("manager", "before", "fixed"), CAUGHT)
def test_catch_warnings_is_left_to_eager_runs_only_where_compiled_runs_need_nothing_of_it(
    tmp_path: Path, manager: str, before: str, fixed: bool
) -> None:
    source = _CAUGHT.format(manager=manager, before=before)
    written = _fixed(tmp_path, source, "BL207")
    assert any(f.code == "BL207" for f in _lint(tmp_path, source))
    assert (written is not None) is fixed
    if written is not None:
        assert (
            "with contextlib.nullcontext() if torch.compiler.is_compiling() else "
            "warnings.catch_warnings():"
        ) in written


# `out=` into an empty tensor: the result is taken instead, only where no other name can come to
# hold the empty tensor or a view of it (after the call, `use` stands for each case's reads).
OUT_CALL = "    torch.index_select(x, 0, idx, out=rows)\n"
TAKEN = "    rows = torch.index_select(x, 0, idx)\n"
USES = [
    ("    return rows * 2", True),
    ("    return rows.shape[0] + rows.size(1)", True),
    ("    return torch.clamp(rows, min=0)", True),
    ("    total = x.new_zeros(3)\n    total.add_(rows.sum(0))\n    return total", False),
    ("    return x.new_zeros(2, 3).resize_as_(rows)", True),  # another tensor's method
    ("    kept = rows\n    return kept", False),  # another name holds it
    ("    return [rows]", False),  # a list holds it
    ("    return rows[0]", False),  # a view of it
    ("    return torch.narrow(rows, 0, 0, 1)", False),  # a view of it
    ("    return helper(rows)", False),  # a function of the project may keep it
    ("    return rows.view(-1)", False),  # a view of it
]


@pytest.mark.parametrize(("use", "taken"), USES)
def test_an_out_tensor_made_empty_is_replaced_by_the_result_only_where_nothing_else_holds_it(
    tmp_path: Path, use: str, taken: bool
) -> None:
    source = (
        "import torch\n\n\ndef helper(t):\n    return t\n\n\ndef f(x, idx):\n"
        f"    rows = x.new()\n{OUT_CALL}{use}\n\n\ncompiled = torch.compile(f)\n"
    )
    fixed = _fixed(tmp_path, source, "BL305")
    assert fixed == (source.replace(OUT_CALL, TAKEN) if taken else None)


# `clamp` given a number bound and a tensor bound: the bounds one at a time, `min` first.
BOUNDS = [
    ("torch.clamp(x, 0, t)", "torch.clamp(x, min=0).clamp(max=t)"),
    ("torch.clamp(x, t, 1.0)", "torch.clamp(x, min=t).clamp(max=1.0)"),
    ("x.clamp(max=t, min=-1)", "x.clamp(min=-1).clamp(max=t)"),
    ("x.clip(0, max=t)", "x.clip(min=0).clip(max=t)"),
    ("(x.clamp_(0, t))", "(x.clamp_(min=0).clamp_(max=t))"),
    ("torch.clip_(x, -1, t)", "torch.clip_(x, min=-1).clip_(max=t)"),
    ("torch.clamp(x, 0, t, out=x)", None),  # written into `out`
    ("clamp(x, 0, t)", None),  # no method to append the second bound by
    ("torch.clamp(input=x, min=0, max=t)", None),  # the tensor given by its keyword
]


@pytest.mark.parametrize(("call", "written"), BOUNDS)
def test_a_number_bound_beside_a_tensor_bound_is_given_apart(
    tmp_path: Path, call: str, written: str | None
) -> None:
    source = (
        "import torch\nfrom torch import clamp\n\n\ndef f(x):\n    t = x.mean()\n"
        f"    return {call}\n\n\ncompiled = torch.compile(f)\n"
    )
    assert any(f.code == "BL304" for f in _lint(tmp_path, source))
    fixed = _fixed(tmp_path, source, "BL304")
    assert fixed == (None if written is None else source.replace(call, written))


INDEXES = [
    # read once into a new value: a copy of the one index, its dimension squeezed again
    ("return y - x[top]", "return y - x[top.reshape(1)].squeeze(0)"),
    ("return y + x[:, top]", "return y + x[:, top.reshape(1)].squeeze(1)"),
    (  # the value stored into an element
        "out = y.sum(0)\n    out[0] = x[:, 0][top]\n    return out",
        "out = y.sum(0)\n    out[0] = x[:, 0][top.reshape(1)].squeeze(0)\n    return out",
    ),
    ("return x[top]", None),  # returned: a view of `x`, which a copy is not
    ("row = x[top]\n    return row", None),  # bound to a name: it may be changed in place
    ("return y - x[top, 0]", None),  # an int besides the tensor
    # written to: the one index, whose dimension the value broadcasts into
    ("y[top] = 0.0\n    return y", "y[top.reshape(1)] = 0.0\n    return y"),
    ("y[:, top] *= 2\n    return y", "y[:, top.reshape(1)] *= 2\n    return y"),
]


INDEXED = """import torch


def f(x):
    top = x.pow(2).sum(-1).argmax()  # a 0-dim tensor
    y = x * 2
    {body}


compiled = torch.compile(f)
"""


@pytest.mark.parametrize(("body", "written"), INDEXES)
def test_a_zero_dim_index_becomes_a_tensor_of_one_index_where_a_copy_does(
    tmp_path: Path, body: str, written: str | None
) -> None:
    source = INDEXED.format(body=body)
    assert any(f.code == "BL304" for f in _lint(tmp_path, source))
    expected = None if written is None else INDEXED.format(body=written)
    assert _fixed(tmp_path, source, "BL304") == expected
