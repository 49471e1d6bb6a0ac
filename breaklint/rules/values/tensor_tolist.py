from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import NumberUses, NumberUsesHooks, offer
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Rule, RuleContext

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _unbound(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `unbind` fix: `t.tolist()` becomes `t.detach().unbind(0)`."""
    import libcst as cst

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    if node.func.attr.value != "tolist":
        return None
    detached = cst.Call(node.func.with_changes(attr=cst.Name("detach")))
    unbind = cst.Attribute(detached, cst.Name("unbind"))
    return node.with_changes(func=unbind, args=[cst.Arg(cst.Integer("0"))])


def _python_range(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `range` fix: `torch.arange(a, b).tolist()` becomes `list(range(a, b))`."""
    import libcst as cst

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    made = node.func.value
    if not isinstance(made, cst.Call):
        return None
    counted = cst.Call(cst.Name("range"), args=[a.with_changes(keyword=None) for a in made.args])
    return node.with_changes(func=cst.Name("list"), args=[cst.Arg(counted)])


# What makes a Python int from sizes while tracing (`len(x.shape)`, `x.ndim`, `x.size(1)`).
_INT_CALLS = frozenset({"len"})
_INT_METHODS = frozenset({"dim", "size", "numel"})
_INT_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)


def _python_int(node: ast.expr, resolve: Callable[[ast.expr], str | None]) -> bool:
    """An expression whose value is a Python int, from integer literals and sizes."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _python_int(node.operand, resolve)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPERATORS):
        return _python_int(node.left, resolve) and _python_int(node.right, resolve)
    if isinstance(node, ast.Attribute):
        return node.attr == "ndim"
    if isinstance(node, ast.Subscript):  # `x.shape[1]`
        index = node.slice
        sized = isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
        return sized and _python_int(index, resolve)
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    if isinstance(node.func, ast.Attribute) and node.func.attr in _INT_METHODS:
        return all(_python_int(a, resolve) for a in node.args) and len(node.args) <= 1
    return resolve(node.func) in _INT_CALLS and len(node.args) == 1


class TensorTolist(NumberUsesHooks, Rule):
    code = "BL103"
    name = "tensor-tolist"
    words = frozenset({"tolist"})
    severity = Severity.ERROR
    message = (
        "`.tolist()` copies a tensor's values into Python numbers; Dynamo traces without "
        "values, so it breaks the graph here"
    )
    hint = (
        "keep the data a tensor (index it, `torch.split`, `unbind`), or call it outside the "
        "compiled code"
    )
    fix_safety = """
Unsafe fix: where the values are unpacked into names (`x1, y1, x2, y2 = box.tolist()`) whose
every use in the function is an operand of arithmetic or of a comparison with a tensor, an
ordering or equality test against a number, or an argument of a `print`, `.tolist()` becomes
`.detach().unbind(0)`: each name holds a 0-d tensor without gradient, as the number had none,
and the graph goes on (measured on 2.13: one graph, equal eager outputs). Eager results can
differ in dtype where the tensor's dtype category is higher than the other operand's (an
integer tensor's values times a `float64` tensor), and for a tensor of more than one dimension
each name holds a row instead of a list. Elsewhere (a loop, an index, a size, a key, a list
kept whole) no fix is offered: the code uses the values as Python numbers, and keeping a
tensor means rewriting those uses, which differ from one program to the next; the hint names
the tensor forms.

`torch.arange(a, b, step).tolist()` whose arguments are Python ints (integer literals, `len()`,
`.ndim`, `.dim()`, `.size(i)`, `.shape[i]`, and sums and products of them) and that has no
keywords becomes `list(range(a, b, step))`: the same list of ints, made without a tensor
(reduction axes, `torch.arange(2, len(x.shape)).tolist()`). This form changes nothing the code
computes; it carries the rule's unsafe label all the same.
"""
    what = """
Flags `tensor.tolist()` in compiled code.
"""
    why = """
`.tolist()` needs every element's value; fake tensors have none. Dynamo breaks the graph
(GB0109), runs the conversion eagerly and continues with Python lists that it then guards on.
"""
    example = """
import torch


def scaled_rows(x):
    scales = x.amax(dim=1).tolist()
    return torch.stack([row / s for row, s in zip(x, scales)])


compiled = torch.compile(scaled_rows)
"""
    use_instead = """
import torch


def scaled_rows(x):
    return x / x.amax(dim=1, keepdim=True)


compiled = torch.compile(scaled_rows)
"""
    probe = "(scaled_rows, (torch.rand(3, 4) + 1,))"
    gb_ids = ("GB0109",)
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"unbind": _unbound, "range": _python_range}
    fix_examples = (
        FixExample(
            before="""
import torch


def in_box(points, box):
    x1, y1, x2, y2 = (box * 2).tolist()
    inside = (points[:, 0] > x1) & (points[:, 1] > y1)
    return inside.float() * (x2 - x1) * (y2 - y1)


compiled = torch.compile(in_box)
""",
            after="""
import torch


def in_box(points, box):
    x1, y1, x2, y2 = (box * 2).detach().unbind(0)
    inside = (points[:, 0] > x1) & (points[:, 1] > y1)
    return inside.float() * (x2 - x1) * (y2 - y1)


compiled = torch.compile(in_box)
""",
            probe="(in_box, (torch.rand(8, 2), torch.tensor([0.1, 0.2, 0.4, 0.45])))",
        ),
        FixExample(
            before="""
import torch


def spatial_mean(x):
    axes = torch.arange(2, len(x.shape)).tolist()
    return x.mean(dim=axes)


compiled = torch.compile(spatial_mean)
""",
            after="""
import torch


def spatial_mean(x):
    axes = list(range(2, len(x.shape)))
    return x.mean(dim=axes)


compiled = torch.compile(spatial_mean)
""",
            probe="(spatial_mean, (torch.randn(2, 3, 4, 5),))",
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.numbers = NumberUses(context)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.numbers.visit_operation(node)

    visit_Compare = visit_BinOp

    def visit_Call(self, node: ast.Call) -> None:
        self.numbers.visit_Call(node)
        call = self.context.facts.tensor_method(node)
        if (
            call is not None
            and call[1] == "tolist"
            and not node.args
            and not node.keywords
            and (self.context.facts.kind(call[0]) is not Kind.PYTHON)
            and not self.numbers.bind_unpacked(node, None)
        ):
            self.report(node, fix=self._range_fix(node, call[0]))

    def _range_fix(self, node: ast.Call, made: ast.expr) -> Fix | None:
        """`torch.arange(a, b, step).tolist()` of Python ints (literals, sizes): the same
        list is `list(range(a, b, step))`, which needs no tensor."""
        resolve = self.context.facts.resolve
        if not isinstance(made, ast.Call) or resolve(made.func) != "torch.arange":
            return None
        if made.keywords or not 1 <= len(made.args) <= 3 or self._shadowed("range", "list"):
            return None
        if not all(_python_int(argument, resolve) for argument in made.args):
            return None
        message = "the same list from Python ints: `list(range(...))`"
        return offer(self.context, node, message, "range", self.fix_applicability)

    def _shadowed(self, *builtins: str) -> bool:
        """Whether the file binds one of `builtins` to something else."""
        facts = self.context.facts
        return any(facts.resolve(ast.Name(name)) != name for name in builtins)

    def _fix(self, node: ast.Call) -> Fix | None:
        message = "keep the values tensors: `.detach().unbind(0)`"
        return offer(self.context, node, message, "unbind", self.fix_applicability)

    def _hint(self, node: ast.Call) -> str:
        return self.hint or ""

    def _message(self, node: ast.Call) -> str:
        return self.message
