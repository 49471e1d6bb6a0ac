from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import NumberUses, NumberUsesHooks, check_fixes, offer, tensor_operands
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.syntax import excerpt

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

CONVERSIONS = frozenset({"float", "int", "bool", "complex"})
# The tensor method that converts as the builtin does (`int()` truncates, as `.long()` does).
TENSOR_CONVERSIONS = {"float": "float", "int": "long"}


def _keep_tensor(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `keep-tensor` fix: `int(x)` becomes `x.detach().long()`."""
    import libcst as cst

    from breaklint.rewrites import method

    if not isinstance(node, cst.Call):
        return None
    if not isinstance(node.func, cst.Name) or len(node.args) != 1:
        return None
    conversion = TENSOR_CONVERSIONS.get(node.func.value)
    if conversion is None:
        return None
    value = node.args[0].value
    return method(method(value, "detach"), conversion).with_changes(lpar=node.lpar, rpar=node.rpar)


class TensorToScalar(NumberUsesHooks, Rule):
    code = "BL102"
    name = "tensor-to-scalar"
    severity = Severity.ERROR
    message = (
        "`{func}(...)` of a tensor reads its value into a Python {func}; Dynamo traces "
        "without values, so it breaks the graph here"
    )
    hint = (
        "keep the value a tensor (tensor arithmetic, `torch.where`), or set "
        "torch._dynamo.config.capture_scalar_outputs = True"
    )
    what = """
Flags `float(t)`, `int(t)`, `bool(t)` and `complex(t)` on a tensor (a traced parameter, the
result of a `torch` function, a tensor method or arithmetic on tensors) in compiled code. An
`int(t.argmax())` used as a slice bound is reported with the extra cost it carries: the
output shape then depends on data. When the converted value is only a parameter of the
compiled function in arithmetic (`int(patch_height * self.patch_size)`), which may be a Python
number, the finding is a warning rather than an error.
"""
    why = """
Converting a tensor to a Python number needs its value, which fake tensors do not have at
trace time. Dynamo ends the graph before the conversion, runs it eagerly and starts a new
graph after it (GB0124). Used as an index or slice bound, the number also makes the next
graph's shapes depend on data.
"""
    example = """
import torch


def top_prefix(x):
    end = int(x.argmax())
    return x[:end] * 2


compiled = torch.compile(top_prefix)
"""
    use_instead = """
import torch


def top_prefix(x):
    keep = torch.arange(x.shape[0]) < x.argmax()
    return torch.where(keep, x * 2, torch.zeros_like(x))


compiled = torch.compile(top_prefix)
"""
    probe = "(top_prefix, (torch.randn(8),))"
    gb_ids = ("GB0124",)
    fix_examples = (
        FixExample(
            before="""
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        return x * float(x.mean()) + int(x.abs().max())  # scaled, shifted


compiled = torch.compile(Gate())
""",
            after="""
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        return x * x.mean().detach().float() + x.abs().max().detach().long()  # scaled, shifted


compiled = torch.compile(Gate())
""",
            probe="(Gate(), (torch.randn(8) * 4,))",
        ),
        FixExample(
            before="""
import torch


def standardize(x, w):
    spread = float(w.std())
    steps = int(w.abs().max())
    return (x - w.mean()) / spread + steps * x.sign()


compiled = torch.compile(standardize)
""",
            after="""
import torch


def standardize(x, w):
    spread = w.std().detach().float()
    steps = w.abs().max().detach().long()
    return (x - w.mean()) / spread + steps * x.sign()


compiled = torch.compile(standardize)
""",
            probe="(standardize, (torch.randn(8), torch.randn(5) * 3))",
            tolerance=1e-6,
        ),
        FixExample(
            before="""
import torch


def stable(x):
    y = x.exp()
    if float(y.max()) > 1e6:
        raise OverflowError(f"exp overflowed to {float(y.max())}")
    return y.log1p()


compiled = torch.compile(stable)
""",
            after="""
import torch


def stable(x):
    y = x.exp()
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_not(y.max() > 1e6), "exp overflowed to {float(y.max())}")
    elif float(y.max()) > 1e6:
        raise OverflowError(f"exp overflowed to {float(y.max())}")
    return y.log1p()


compiled = torch.compile(stable)
""",
            probe="(stable, (torch.randn(8),))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"keep-tensor": _keep_tensor}
    fix_safety = """
Unsafe fix: where the number is an operand of arithmetic or of a comparison with a tensor, or
computes a name whose every use in the function is such an operand, an ordering or equality
test against a number, or an argument of a `print`, `float(t)` becomes `t.detach().float()` and
`int(t)` becomes `t.detach().long()` (which truncates as `int()` does): the value stays a
tensor without gradient and the graph goes on. Eager results can differ when the other operand
is an integer tensor and the value a float (`float32` is used where Python would promote to the
default float dtype) and when `t` is a one-element tensor that is not 0-d (it broadcasts).
Where the number (`float(t)`, `bool(t)`) is the test of an `if` that raises, compared with
constants and joined by `not`, `and`, `or`, the `if` is kept for eager runs after `if
torch.compiler.is_compiling(): torch._assert_async(<not test on the tensors>, "<msg as
written>")`: compiled code checks in the graph and raises a `RuntimeError` with the message
unformatted (`int(t)` truncates, so its test is not the tensor's and gets no such fix).
`complex()` and other uses have no automatic fix.
"""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._in_tensor_arithmetic: set[int] = set()  # calls whose number a tensor can be
        self._index_depth = 0
        self.numbers = NumberUses(context)
        self._checks: dict[int, Fix] = {}  # reads in the test of a raising check: its fix

    def visit_If(self, node: ast.If) -> None:
        self._checks.update(check_fixes(self.context, node, self.fix_applicability))

    def visit_BinOp(self, node: ast.BinOp) -> None:
        operands = tensor_operands(self.context, node)
        self._in_tensor_arithmetic.update(map(id, operands))
        self.numbers.visit_operation(node)

    visit_Compare = visit_BinOp

    def visit_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth += 1

    def leave_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth -= 1

    def visit_Call(self, node: ast.Call) -> None:
        self.numbers.visit_Call(node)
        func = node.func
        if not (
            isinstance(func, ast.Name)
            and func.id in CONVERSIONS
            and len(node.args) == 1
            and not node.keywords
        ):
            return
        facts = self.context.facts
        if func.id in facts.names or not facts.kind(node.args[0]).is_tensor:
            return
        message = self.message.format(func=func.id)
        if self._index_depth:
            message += "; used as an index or slice bound it also makes the shape data-dependent"
        # `float(x)` of a parameter taken for a tensor: a warning. Arithmetic on such a
        # parameter converted back, `int(patch_height * self.patch_size)`, is how Python sizes
        # are computed, not tensors: not flagged.
        guess = facts.rests_on_guess(node.args[0])
        if guess and isinstance(node.args[0], ast.BinOp):
            return
        severity = Severity.WARNING if guess else None
        convertible = func.id in TENSOR_CONVERSIONS
        if id(node) in self._checks:
            self.report(node, message, severity=severity, fix=self._checks[id(node)])
        elif convertible and id(node) in self._in_tensor_arithmetic:
            self.report(node, message, severity=severity, fix=self._fix(node))
        elif not (convertible and self.numbers.bind(node, severity)):
            self.report(node, message, severity=severity, hint=self._hint(node))

    def _fix(self, node: ast.Call) -> Fix | None:
        conversion = TENSOR_CONVERSIONS[node.func.id]  # type: ignore[attr-defined]
        message = f"keep the value a tensor: `.detach().{conversion}()`"
        return offer(self.context, node, message, "keep-tensor", self.fix_applicability)

    def _hint(self, node: ast.Call) -> str:
        return (
            f"use `{excerpt(node.args[0])}` itself where `{excerpt(node)}` is used: tensor "
            "arithmetic and `torch.where` take the tensor; or set "
            "torch._dynamo.config.capture_scalar_outputs = True"
        )

    def _message(self, node: ast.Call) -> str:
        return self.message.format(func=node.func.id)  # type: ignore[attr-defined]
