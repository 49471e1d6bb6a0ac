import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.syntax import method_call
from breaklint.tensorness import Kind


class RequiresGradToggle(Rule):
    code = "BL503"
    name = "requires-grad-toggle"
    severity = Severity.ERROR
    message = (
        "`.requires_grad_()` changes autograd metadata of a tensor inside the traced region; "
        "Dynamo breaks the graph here"
    )
    hint = "set requires_grad on inputs and parameters before calling the compiled code"
    what = """
Flags `tensor.requires_grad_()` in compiled code.
"""
    why = """
Dynamo cannot change whether a tensor it is tracing requires gradients: the autograd graph
built around the compiled region depends on it. It breaks the graph (GB0125) and runs the call
eagerly.
"""
    example = """
import torch


def prepare(x):
    y = x * 2
    y.requires_grad_()
    return y + 1


compiled = torch.compile(prepare)
"""
    use_instead = """
import torch


def prepare(x):
    y = x * 2
    return y + 1


compiled = torch.compile(prepare)
"""
    probe = "(prepare, (torch.randn(8),))"
    gb_ids = ("GB0125",)

    def visit_Call(self, node: ast.Call) -> None:
        call = method_call(node)
        if (
            call is not None
            and call[1] == "requires_grad_"
            and (self.context.facts.kind(call[0]) is not Kind.PYTHON)
        ):
            self.report(node)
