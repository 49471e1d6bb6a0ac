import ast

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.rule import Rule


class TensorTolist(Rule):
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
No automatic fix: `.tolist()` turns every element into a Python number because the code after
it uses them as Python values (a loop, an index, a size, a key): keeping a tensor means
rewriting those uses, which differ from one program to the next. The hint names the tensor
forms.
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

    def visit_Call(self, node: ast.Call) -> None:
        call = self.context.facts.tensor_method(node)
        if (
            call is not None
            and call[1] == "tolist"
            and not node.args
            and not node.keywords
            and (self.context.facts.kind(call[0]) is not Kind.PYTHON)
        ):
            self.report(node)
