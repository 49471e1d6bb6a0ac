from __future__ import annotations

import ast
from collections.abc import Mapping
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
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"unbind": _unbound}
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
            self.report(node)

    def _fix(self, node: ast.Call) -> Fix | None:
        message = "keep the values tensors: `.detach().unbind(0)`"
        return offer(self.context, node, message, "unbind", self.fix_applicability)

    def _hint(self, node: ast.Call) -> str:
        return self.hint or ""

    def _message(self, node: ast.Call) -> str:
        return self.message
