import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.rules.shapes._dynamic_shapes import WHY


class RepeatInterleaveTensor(Rule):
    code = "BL303"
    name = "repeat-interleave-tensor"
    words = frozenset({"repeat_interleave"})
    severity = Severity.ERROR
    message = (
        "`repeat_interleave` with tensor `repeats` makes the output size depend on the data; "
        "Dynamo breaks the graph here"
    )
    hint = (
        "pass `output_size=` when the total is known, use an int `repeats`, or set "
        "torch._dynamo.config.capture_dynamic_output_shape_ops = True"
    )
    fix_safety = """
No automatic fix: the output's length is the sum of `repeats`, a value of the data:
`output_size=` removes the break only when that total is known as a Python number, and reading
it from the tensor (`int(repeats.sum())`) breaks in its turn.
"""
    what = """
Flags `torch.repeat_interleave(x, repeats)` and `x.repeat_interleave(repeats)` when `repeats`
is a tensor and no `output_size=` is given. An int `repeats` keeps the shape static.
"""
    why = WHY
    example = """
import torch


def expand_rows(x, counts):
    return x.repeat_interleave(counts, dim=0) * 2


compiled = torch.compile(expand_rows)
"""
    use_instead = """
import torch


def expand_rows(x, counts):
    return x.repeat_interleave(counts, dim=0, output_size=6) * 2


compiled = torch.compile(expand_rows)
"""
    probe = "(expand_rows, (torch.randn(3, 4), torch.tensor([1, 2, 3])))"
    gb_ids = ("GB0036",)

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        positional = node.args
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        if "output_size" in keywords:
            return
        if name == "torch.repeat_interleave":
            repeats = positional[1] if len(positional) > 1 else keywords.get("repeats")
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "repeat_interleave":
            repeats = positional[0] if positional else keywords.get("repeats")
        else:
            return
        if repeats is not None and facts.kind(repeats).is_tensor:
            self.report(node)
