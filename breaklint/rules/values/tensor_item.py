from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import NumberUses, NumberUsesHooks, offer, tensor_operands
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.rules.control_flow.data_dependent_branch import (
    NUMBER_TEST_REWRITES,
    NumberTestHooks,
    number_test_checks,
)
from breaklint.syntax import excerpt

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _detach(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `detach` fix: `x.item()` becomes `x.detach()`."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value != "item":
        return None
    return node.with_changes(func=node.func.with_changes(attr=cst.Name("detach")))


# A page example: a number read into a name that only tensor arithmetic uses.
_NORMALIZE = """
import torch


class Normalize(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        scale = x.abs().mean().item()
        return self.proj(x) / (scale + 1e-6) - (x > scale).float()


compiled = torch.compile(Normalize())
"""


# A page example: numbers read into names that arguments taking a 0-d tensor use.
_MASKED_MEAN = """
import torch


def masked_mean(x, mask, limit):
    count = mask.sum().item()
    bound = limit.abs().max().item()
    half = bound / 2
    return (x * mask).sum() / max(count, 1) + x.clamp(max=bound).mean() - half


compiled = torch.compile(masked_mean)
"""


# A page example: a number read for an assertion.
_BOUNDED = """
import torch


def bounded_ratio(x, y):
    ratio = (x / y).amax()
    assert ratio.item() < 1e4, "ratio overflowed"
    return x / y


compiled = torch.compile(bounded_ratio)
"""

# A page example: a number read for the test of a branch that chooses a value.
_SOFT_CLIP = """
import torch


def soft_clip(x):
    peak = x.abs().amax()
    if peak.item() > 1.0:
        y = x / peak
    else:
        y = x
    return y


compiled = torch.compile(soft_clip)
"""


class TensorItem(NumberTestHooks, NumberUsesHooks, Rule):
    code = "BL101"
    name = "tensor-item"
    words = frozenset({"item"})
    severity = Severity.ERROR
    message = "`.item()` turns a tensor into a Python number: Dynamo breaks the graph here"
    hint = (
        "keep the value a tensor (use it directly in tensor arithmetic), or set "
        "torch._dynamo.config.capture_scalar_outputs = True"
    )
    what = """
Flags `tensor.item()` inside code that `torch.compile` traces.
"""
    why = """
`.item()` reads a tensor's value into a Python scalar. Dynamo traces with fake tensors that
have no values, so by default it stops the graph before the call, runs it eagerly and starts
a new graph after it (graph break GB0124). Every later use of the Python number is a constant
guarded on, which can also cause recompilations.
"""
    example = """
import torch


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = torch.nn.Parameter(torch.ones(()))

    def forward(self, x):
        return x * self.gain.item()
"""
    use_instead = """
import torch


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = torch.nn.Parameter(torch.ones(()))

    def forward(self, x):
        return x * self.gain
"""
    probe = "(Scale(), (torch.randn(4),))"
    fix_examples = (
        FixExample(
            before="""
import torch


def require(condition, message):
    if not condition:
        raise ValueError(message)


def normalized(points):
    require(torch.all(points >= -1).item() and torch.all(points <= 1).item(), "outside [-1, 1]")
    return points * 2


compiled = torch.compile(normalized)
""",
            after="""
import torch


def require(condition, message):
    if not condition:
        raise ValueError(message)


def normalized(points):
    if not torch.compiler.is_compiling():
        require(torch.all(points >= -1).item() and torch.all(points <= 1).item(), "outside [-1, 1]")
    return points * 2


compiled = torch.compile(normalized)
""",
            probe="(normalized, (torch.rand(8) * 2 - 1,))",
        ),
        FixExample(example, use_instead.replace("x * self.gain", "x * self.gain.detach()"), probe),
        FixExample(
            before="""
import torch


def shifted(x, offset):
    # the mean of `offset` moves every element
    return (x - offset.mean().item()) / 2  # centred


compiled = torch.compile(shifted)
""",
            after="""
import torch


def shifted(x, offset):
    # the mean of `offset` moves every element
    return (x - offset.mean().detach()) / 2  # centred


compiled = torch.compile(shifted)
""",
            probe="(shifted, (torch.randn(8), torch.randn(3)))",
        ),
        FixExample(
            before=_NORMALIZE,
            after=_NORMALIZE.replace(".item()", ".detach()"),
            probe="(Normalize(), (torch.randn(4, 8),))",
            tolerance=1e-6,
        ),
        FixExample(
            before="""
import torch


def from_grid(x, low):
    outside = (x - low).lt(0)
    if outside.sum().item():
        first = outside.nonzero()[0].item()
        raise RuntimeError("below the grid at {}".format(first))
    return x - low


compiled = torch.compile(from_grid)
""",
            after="""
import torch


def from_grid(x, low):
    outside = (x - low).lt(0)
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_not(outside.sum()), "below the grid at {}")
    elif outside.sum().item():
        first = outside.nonzero()[0].item()
        raise RuntimeError("below the grid at {}".format(first))
    return x - low


compiled = torch.compile(from_grid)
""",
            probe="(from_grid, (torch.rand(8) + 1, torch.tensor(0.5)))",
        ),
        FixExample(
            before=_SOFT_CLIP,
            after=_SOFT_CLIP.replace(
                "if peak.item() > 1.0:\n        y = x / peak\n    else:\n        y = x",
                "y = torch.where(peak > 1.0, x / peak, x)",
            ),
            probe="(soft_clip, (torch.randn(8) * 2,))",
        ),
        FixExample(
            before=_MASKED_MEAN,
            after=_MASKED_MEAN.replace(".item()", ".detach()"),
            probe="(masked_mean, (torch.randn(8), (torch.rand(8) > 0.5).float(), torch.randn(3)))",
        ),
        FixExample(
            before=_BOUNDED,
            after=_BOUNDED.replace(
                '    assert ratio.item() < 1e4, "ratio overflowed"',
                "    if torch.compiler.is_compiling():\n"
                '        torch._assert_async(ratio < 1e4, "ratio overflowed")\n'
                "    else:\n"
                '        assert ratio.item() < 1e4, "ratio overflowed"',
            ),
            probe="(bounded_ratio, (torch.rand(8) + 1, torch.rand(8) + 1))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"detach": _detach, **NUMBER_TEST_REWRITES}
    fix_safety = """
Unsafe fix: where the number is an operand of arithmetic or of a comparison with a tensor (also
through nested arithmetic, `x / (t.item() + eps)`), or computes a name (`scale = t.item()`,
`scale = d ** -0.5 / t.item()`, `n = a.item() if c else b.item()`) whose every use in the
function is such an operand, an ordering or equality test against a number (not in the test
of a loop or of an `if` that does more than assign, where the break would only move), an
argument of a `print`, an argument that takes a 0-d tensor for a number (a bound of `clamp`,
`clamp_min`, `clamp_max` given alone, the value of `torch.full`, `masked_fill`, `fill_`, a value of
`torch.where`, the weight of `lerp`, the other operand of `add`, `sub`, `mul`, `div`), an
argument of `max`, `min` or `abs` among numbers whose result is such a use, or computes another
name by arithmetic whose uses all are (`half = n / 2`), `.item()` becomes `.detach()`:
the value stays a tensor without gradient, as the number had none, and the graph goes on (a
`print` shows `tensor(...)`). Eager results can differ when the value's tensor has a higher
dtype category than the other operand (an integer tensor times a `float64` value gives
`float64`, not the default float), and a one-element tensor that is not 0-d broadcasts (a 0-d
operand then gives a 1-element result). Where the number is the test of an `if` that raises (`if
t.sum().item(): ... raise E(msg)`, numbers compared with numbers or names, joined by `not`, `and`,
`or`), the `if` is kept for eager runs after `if torch.compiler.is_compiling():
torch._assert_async(<not test on the tensors>, "<msg as written>")`: compiled code checks in
the graph and raises a `RuntimeError` with the message unformatted. Where the number is a
truth passed to a function whose answer nothing reads (`check(t.all().item(), msg)`: a
statement of its own, calling a function by its name or from a module, not a method of an
object), the statement runs only `if not torch.compiler.is_compiling():`: eager runs check as
written, compiled runs skip the check. Where the numbers make the test of any other `if` (not
an `elif`) or conditional expression, compared with numbers or taken for their truth, joined by
`not`, `and`, `or` (`if t.item() > 0.5:`), the test is made on the tensors (`t > 0.5`; a read
taken for its truth becomes `t != 0`) and the branch gets the fix BL201 gives a branch on that
tensor test where it is a choice of values: `torch.where` for names both ways assign (or a
tensor one way keeps), values returned both ways (also an early `return` and the function's
last), intermediate values computed first, or
tensors updated in place (BL201's page says when each applies). Unsafe as BL201's: both sides
are computed, the names become tensors, and a one-element tensor that is not 0-d broadcasts
the chosen values to its dimensions. An `assert` whose test is made of such reads (`assert
t.item() < 1e4, msg`) is kept for eager runs after `if torch.compiler.is_compiling():
torch._assert_async(<test on the tensors>, "<msg as written>")`, as a raising `if` is: compiled
code checks in the graph and raises a `RuntimeError`, not an `AssertionError`. Elsewhere (stored,
returned, passed to Python) no fix is offered: the hint says what to change.
"""
    gb_ids = ("GB0124",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._in_tensor_arithmetic: set[int] = set()  # calls whose number a tensor can be
        self.numbers = NumberUses(context)
        self.checks = number_test_checks(context, self.fix_applicability)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        operands = tensor_operands(self.context, node)
        self._in_tensor_arithmetic.update(map(id, operands))
        self.numbers.visit_operation(node)

    visit_Compare = visit_BinOp

    def _fix(self, node: ast.Call) -> Fix | None:
        message = "keep the value a tensor: `.detach()`"
        return offer(self.context, node, message, "detach", self.fix_applicability)

    def visit_Call(self, node: ast.Call) -> None:
        self.numbers.visit_Call(node)
        self.checks.visit_Call(node)
        call = self.context.facts.tensor_method(node)
        if call is not None and call[1] == "item" and not node.args and not node.keywords:
            if id(node) in self.checks.fixes:
                self.report(node, fix=self.checks.fixes[id(node)])
            elif id(node) in self._in_tensor_arithmetic or self.numbers.takes_tensor(node):
                self.report(node, fix=self._fix(node))
            elif not self.numbers.bind(node, None):
                self.report(node, hint=self._hint(node))

    def _hint(self, node: ast.Call) -> str:
        tensor = excerpt(node.func.value)  # type: ignore[attr-defined]
        return (
            f"use `{tensor}` itself where `{excerpt(node)}` is used: tensor arithmetic and "
            "`torch.where` take the tensor; or set "
            "torch._dynamo.config.capture_scalar_outputs = True"
        )

    def _message(self, node: ast.Call) -> str:
        return self.message
