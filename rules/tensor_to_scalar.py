import ast

from breaklint.findings import Severity
from breaklint.rule import Rule

CONVERSIONS = frozenset({"float", "int", "bool", "complex"})


class TensorToScalar(Rule):
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

    def __init__(self, context) -> None:
        super().__init__(context)
        self._index_depth = 0

    def visit_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth += 1

    def leave_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth -= 1

    def visit_Call(self, node: ast.Call) -> None:
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
        self.report(node, message, severity=Severity.WARNING if guess else None)
