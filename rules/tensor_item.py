import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.syntax import method_call


class TensorItem(Rule):
    code = "BL101"
    name = "tensor-item"
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
    fix_safety = """
No automatic fix: dropping `.item()` changes the type of the value, which is only correct
when every use of it accepts a tensor.
"""
    gb_ids = ("GB0124",)

    def visit_Call(self, node: ast.Call) -> None:
        call = method_call(node)
        if call is not None and call[1] == "item" and not node.args and not node.keywords:
            self.report(node)
