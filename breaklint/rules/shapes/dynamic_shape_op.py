import ast

from breaklint.class_attributes import public_module_name
from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.knowledge.answers import DYNAMIC_OUTPUT_SHAPE
from breaklint.knowledge.curated import DYNAMIC_SHAPE_MODULES
from breaklint.rule import Outline, Rule, called
from breaklint.rules.shapes._dynamic_shapes import HINT, WHY
from breaklint.syntax import dotted

# Without `num_classes` (or with -1) its width is the largest label plus one: a value (GB0246).
ONE_HOT = "torch.nn.functional.one_hot"
# Operators torch's table marks as sized by the data that another rule owns or that break only
# in some forms: `one_hot` (above), `repeat_interleave` with tensor repeats (BL303), indexing
# with a boolean mask (`Tensor.index`, BL302), the CTC loss (BL509, with its way out).
_OWNED_ELSEWHERE = frozenset(
    {ONE_HOT, "torch.repeat_interleave", "Tensor.repeat_interleave", "Tensor.index",
     "torch.nn.functional.ctc_loss"}
)  # fmt: skip
# What reaches such an operator through Python or a composite, measured on Dynamo 2.13: the
# table names only the operators themselves.
_THROUGH_COMPOSITES = frozenset({"torch.unique", "Tensor.unique", "torch.combinations"})
_SIZED_BY_DATA = (DYNAMIC_OUTPUT_SHAPE - _OWNED_ELSEWHERE) | _THROUGH_COMPOSITES
FUNCTIONS = frozenset(name for name in _SIZED_BY_DATA if name.startswith("torch."))
METHODS = frozenset(
    name.removeprefix("Tensor.") for name in _SIZED_BY_DATA if name.startswith("Tensor.")
)


class DynamicShapeOp(Rule):
    code = "BL301"
    name = "dynamic-shape-op"
    words = called(*FUNCTIONS, "torch.where", ONE_HOT) | METHODS
    severity = Severity.ERROR
    message = (
        "`{op}` returns a tensor whose size depends on the data; Dynamo cannot trace it with "
        "fake tensors and breaks the graph here"
    )
    module_message = (
        "`{call}` is an `{module}`, whose forward runs an operator whose output size depends on "
        "the data; Dynamo cannot trace it with fake tensors and breaks the graph here"
    )
    hint = HINT
    fix_safety = """
No automatic fix: the result's size depends on the data, and every form with a fixed size
(`torch.where(mask, x, 0)`, weighting by the mask) returns another value (padded, weighted)
that the code after it must be rewritten to expect;
`torch._dynamo.config.capture_dynamic_output_shape_ops = True` lets Dynamo trace many of these
ops instead.
"""
    what = """
Flags the calls whose output size depends on the data: those torch's operator table tags so
(`torch.nonzero`, `torch.argwhere`, `torch.unique_consecutive`, `torch.masked_select`,
`torch.bincount`, `torch.linalg.lstsq` and their tensor methods), those that reach one
through Python or a composite (`torch.unique`, `torch.combinations`), the one-argument
`torch.where(cond)`, and `F.one_hot(labels)` without `num_classes` (or with -1), whose width is
the largest label plus one; and calls of the torch modules whose forward runs such an
operator (`nn.CTCLoss`, `nn.AdaptiveLogSoftmaxWithLoss`), held on an attribute `__init__` sets.
The three-argument `torch.where(cond, a, b)` keeps the shape and is
fine, and so is `F.one_hot(labels, num_classes)`.
"""
    why = WHY
    example = """
import torch


def positive_sum(x):
    y = x * 2
    return y[torch.nonzero(y > 0, as_tuple=True)].sum() + 1


compiled = torch.compile(positive_sum)
"""
    use_instead = """
import torch


def positive_sum(x):
    y = x * 2
    return torch.where(y > 0, y, 0).sum() + 1


compiled = torch.compile(positive_sum)
"""
    probe = "(positive_sum, (torch.randn(8),))"
    gb_ids = ("GB0036",)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return super().may_report(outline) or (
            "self" in outline.words
            and any(
                public_module_name(made) in DYNAMIC_SHAPE_MODULES
                for made in outline.self_assignments.made()
            )
        )

    def visit_Call(self, node: ast.Call) -> None:
        module = self._module_called(node.func)
        if module is not None:
            self.report(node, self.module_message.format(call=dotted(node.func), module=module))
            return
        name = self.context.facts.resolve(node.func)
        arguments = len(node.args) + len(node.keywords)
        if name == ONE_HOT and _sized_by_labels(node):
            hint = "pass `num_classes=`, the number of labels: the width is then known"
            self.report(node, self.message.format(op=name), hint=hint)
            return
        if name in FUNCTIONS or (name == "torch.where" and arguments == 1):
            self.report(node, self.message.format(op=name))
            return
        call = self.context.facts.tensor_method(node)
        if call is None or (name is not None and name.startswith("torch.")):
            return
        receiver, method = call
        if method in METHODS and self.context.facts.kind(receiver) is not Kind.PYTHON:
            self.report(node, self.message.format(op=f".{method}()"))

    def _module_called(self, func: ast.expr) -> str | None:
        """The module of data-dependent output size that `func` is, if it is one: an attribute
        `__init__` sets (`self.ctc`)."""
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            for made in self.context.self_assignments.callees(func.attr):
                if public_module_name(made) in DYNAMIC_SHAPE_MODULES:
                    return f"nn.{made.rpartition('.')[2]}"
        return None


def _sized_by_labels(node: ast.Call) -> bool:
    """Whether a `one_hot` call leaves its width to the labels: no `num_classes`, or -1."""
    given = node.args[1] if len(node.args) > 1 else None
    for keyword in node.keywords:
        if keyword.arg == "num_classes":
            given = keyword.value
    if given is None:
        return not any(keyword.arg is None for keyword in node.keywords)  # not `**options`
    return type(given) is ast.UnaryOp and ast.unparse(given) == "-1"
