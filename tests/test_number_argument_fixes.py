"""BL101 and BL102 on a number read from a tensor (`n = t.item()`, `n = float(t)`) whose every
use takes a 0-d tensor as well: an argument that takes one for a number (`x.clamp(max=n)`,
`torch.full(size, n)`, `torch.where(c, x, n)`, `x.masked_fill(m, n)`, `x.fill_(n)`, `x.add(n)`,
`torch.lerp(a, b, n)`), the builtins `max`, `min` and `abs` among numbers where their result is
such a use, a name computed from it by arithmetic whose uses all are (`half = n / 2`), and reads
chosen by a conditional expression (`n = a.item() if c else b.item()`). The read keeps the
tensor (`.detach()`; `int(t)` -> `t.detach().long()`). Each fix is proven on Dynamo 2.13 on
edge values: the original breaks, the fixed code is one graph without a break, with the eager
outputs of the original; fixing the fixed file again finds no read left. Where a use needs the
number (a size, a slice bound, a second `clamp` bound that is a Python number, `full_like`,
`pow`), no fix is offered."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_number_test_fixes import _findings, _fixed, _same_without_breaks

SOURCE = """import torch


def scaled(x, t, flag=True):
    {body}


compiled = torch.compile(scaled)
"""


def _floats(torch: Any) -> list[tuple[Any, ...]]:
    x = torch.linspace(-3, 3, 6)
    return [(x, torch.tensor(v)) for v in (0.3, -2.0, 1.0, 2.5)]


def _counts(torch: Any) -> list[tuple[Any, ...]]:
    x = torch.linspace(-3, 3, 6)
    return [(x, torch.tensor(v)) for v in ([-1.0, -2.0], [1.0, -1.0], [1.0, 2.0])]


CASES: list[tuple[str, str, Callable[[Any], list[tuple[Any, ...]]]]] = [
    ("n = t.item()\n    return x.clamp(max=n)", "n = t.detach()", _floats),
    ("return x.clamp(min=t.item())", "return x.clamp(min=t.detach())", _floats),
    ("n = t.item()\n    return torch.clamp(x, min=n)", "n = t.detach()", _floats),
    ("n = t.item()\n    return x.clamp_min(n) + x.clamp_max(n)", "n = t.detach()", _floats),
    ("n = t.item()\n    return torch.full((6,), n) + x", "n = t.detach()", _floats),
    ("n = int(t)\n    return torch.full((6,), n) + x", "n = t.detach().long()", _floats),
    ("n = t.item()\n    return x.masked_fill(x > 0, n)", "n = t.detach()", _floats),
    ("n = t.item()\n    y = x.clone()\n    y.fill_(n)\n    return y", "n = t.detach()", _floats),
    ("n = t.item()\n    return torch.where(x > 0, x, n)", "n = t.detach()", _floats),
    (
        "n = t.item()\n    y = x.clone()\n    y.clamp_(max=n)\n"
        "    y.masked_fill_(y < 0, n)\n    return y",
        "n = t.detach()",
        _floats,
    ),
    (
        "n = t.item()\n    return torch.clamp_min(x, n) + torch.clamp_max(x, n)",
        "n = t.detach()",
        _floats,
    ),
    ("n = t.item()\n    return torch.where(x > 0, n, 0.0)", "n = t.detach()", _floats),
    (
        "n = t.item()\n    return x.add(n) * x.mul(n) - x.sub(n) + x.div(n)",
        "n = t.detach()",
        _floats,
    ),
    (
        "n = float(t)\n"
        "    return torch.add(x, n) * torch.mul(x, n) - torch.sub(x, n) + torch.div(x, n)",
        "n = t.detach().float()",
        _floats,
    ),
    (
        "n = t.item()\n    return torch.lerp(x, x * 2, n) + x.lerp(x * 3, n)",
        "n = t.detach()",
        _floats,
    ),
    # a count that may be 0, kept from dividing by 0 by `max`: an integer tensor then
    (
        "n = (t > 0).sum().item()\n    return x.sum() / max(n, 1)",
        "n = (t > 0).sum().detach()",
        _counts,
    ),
    ("n = t.item()\n    return x * min(n, 0.5) + abs(n)", "n = t.detach()", _floats),
    ("return x / max(t.item(), 1.0)", "return x / max(t.detach(), 1.0)", _floats),
    # names computed from the number by arithmetic, whose uses all take a tensor
    ("n = t.item()\n    half = n / 2\n    return x * half", "n = t.detach()", _floats),
    (
        "n = float(t)\n    lo = -n\n    hi = n * 2 + lo\n"
        "    return x.clamp(min=lo) + x.clamp(max=hi)",
        "n = t.detach().float()",
        _floats,
    ),
    # reads chosen by a conditional expression
    (
        "n = t.item() if flag else t.item() * 2\n    return x * n",
        "n = t.detach() if flag else t.detach() * 2",
        _floats,
    ),
]

NOT_FIXED = [
    "n = t.item()\n    half = n / 2\n    return x[: int(half)]",  # a slice bound
    "n = t.item()\n    half = n / 2\n    return x * half, half",  # returned as a number
    "n = (t > 0).sum().item()\n    return x.new_zeros(max(n, 1))",  # a size
    "n = t.item()\n    return torch.full_like(x, n)",  # Dynamo breaks on the tensor
    "n = t.item()\n    return x.clamp(-1.0, n)",  # a Python bound beside a tensor breaks
    "n = t.item()\n    return x.pow(n)",  # an integer exponent rounds otherwise
    "n = t.item()\n    return x.clamp(min=n, max=n + 1) if flag else x",  # two bounds
]


@pytest.mark.parametrize(("body", "written", "inputs"), CASES)
def test_a_number_every_use_of_which_takes_a_tensor_stays_one_in_the_graph(
    tmp_path: Path, body: str, written: str, inputs: Callable[[Any], list[tuple[Any, ...]]]
) -> None:
    source = SOURCE.format(body=body)
    fixed = _fixed(tmp_path, source)
    first = body.split("\n")[0]
    assert fixed == source.replace(first, written, 1)
    assert _findings(tmp_path, fixed) == []  # idempotent: nothing is read any more
    torch = pytest.importorskip("torch", reason="proving fixes needs torch")
    for args in inputs(torch):
        _same_without_breaks(source, fixed, *args)


@pytest.mark.parametrize("body", NOT_FIXED)
def test_a_number_a_use_of_which_needs_the_number_gets_no_fix(tmp_path: Path, body: str) -> None:
    source = SOURCE.format(body=body)
    assert _findings(tmp_path, source)  # flagged
    assert _fixed(tmp_path, source) is None


@pytest.mark.parametrize(
    "use",
    ["torch.full_like(x, n)", "x.clamp(-1.0, n)", "x.pow(n)"],
)
def test_arguments_left_out_need_the_number_on_dynamo(use: str) -> None:
    """The uses the fix leaves out: with the 0-d tensor for the number, Dynamo breaks the
    graph (`full_like`, a `clamp` with a Python bound beside it) or the result differs
    (`pow` of an integer exponent)."""
    torch = pytest.importorskip("torch", reason="measuring Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict[str, Any] = {"torch": torch}
    exec(f"def f(x, n):\n    return {use}\n", namespace)
    function = namespace["f"]
    x = torch.tensor([1.1, 2.3, 0.7, 1.7, 3.3, 0.9])
    n = torch.tensor(3) if "pow" in use else torch.tensor(0.3)
    captured = torch_shim.capture(lambda run: run(x, n), function)
    if "pow" in use:
        assert not torch.equal(function(x, n), function(x, n.item()))
    else:
        assert captured.breaks
