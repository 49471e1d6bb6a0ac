import ast

from breaklint.findings import Severity
from breaklint.rule import Rule

# The builtins that turn a tensor into text by reading its values.
TEXT_BUILTINS = frozenset({"str", "repr"})


class TensorToText(Rule):
    code = "BL107"
    name = "tensor-to-text"
    severity = Severity.ERROR
    message = (
        "`{builtin}()` of a tensor writes its values as text; Dynamo traces without values, so "
        "it breaks the graph here"
    )
    hint = (
        "build the text outside the compiled code, or from what a tensor knows without its "
        "values (`x.shape`, `x.dtype`)"
    )
    fix_safety = """
No automatic fix: the text holds the tensor's values, which exist only once the tensor is
computed; the code that needs the text has to run outside the compiled function.
"""
    what = """
Flags `str(t)` and `repr(t)` of a tensor in compiled code. The text of what a tensor knows
without its values (`str(x.shape)`, `str(x.dtype)`) is not flagged: Dynamo traces it.
"""
    why = """
A tensor's text is its values, printed; fake tensors have none. Dynamo cannot trace the
builtin on a tensor ("Failed to trace builtin operator", GB0059; `repr`: GB0569), breaks the
graph, calls it eagerly and continues in a new graph.
"""
    example = """
import torch


def tagged(x):
    y = x.sum()
    label = "total " + str(y)
    return x * len(label)


compiled = torch.compile(tagged)
"""
    use_instead = """
import torch


def tagged(x):
    label = "total " + str(x.dtype)
    return x * len(label)


compiled = torch.compile(tagged)
"""
    probe = "(tagged, (torch.randn(3),))"
    gb_ids = ("GB0059", "GB0569")
    words = TEXT_BUILTINS

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        facts = self.context.facts
        if (
            isinstance(func, ast.Name)
            and func.id in TEXT_BUILTINS
            and func.id not in facts.names
            and len(node.args) == 1
            and not node.keywords
            and facts.kind(node.args[0]).is_tensor
        ):
            severity = Severity.WARNING if facts.rests_on_guess(node.args[0]) else None
            self.report(node, self.message.format(builtin=func.id), severity=severity)
