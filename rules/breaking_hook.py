from breaklint.findings import Severity
from breaklint.rule import Rule


class BreakingHook(Rule):
    """Reported by the engine at a hook's registration; the hook body is checked by the
    other rules because every registered hook is a compile root."""

    code = "BL701"
    name = "breaking-hook"
    severity = Severity.WARNING
    breaks_graph = False
    message = "the registered hook breaks the graph of every module call it runs in"
    hint = (
        "make the hook pure tensor math, or guard its side effects with "
        "`if not torch.compiler.is_compiling():`"
    )
    what = """
Flags a `register_forward_hook`, `register_forward_pre_hook`, `register_full_backward_hook` or
`Tensor.register_hook` call whose hook, defined in the same file, contains a graph break. The
break itself is reported at its line inside the hook; this finding points at the registration.
"""
    why = """
Dynamo inlines module hooks into the graph of the module's call. A hook that prints, logs or
reads a tensor's value therefore splits the compiled module on every call, and the split is
easy to miss because the module's own code is clean.
"""
    example = """
import torch


def report_shape(module, inputs, output):
    print(type(module).__name__, output.shape)


layer = torch.nn.Linear(4, 4)
layer.register_forward_hook(report_shape)
"""
    use_instead = """
import torch


def clamp_output(module, inputs, output):
    return output.clamp(-1, 1)


layer = torch.nn.Linear(4, 4)
layer.register_forward_hook(clamp_output)
"""
    probe = "(layer, (torch.randn(2, 4),))"
