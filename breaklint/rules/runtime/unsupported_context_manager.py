import ast

from breaklint.findings import Severity
from breaklint.knowledge.curated import CONTEXT_MANAGER_ALIASES, UNSUPPORTED_CONTEXT_MANAGERS
from breaklint.rule import Rule


class UnsupportedContextManager(Rule):
    code = "BL507"
    name = "unsupported-context-manager"
    severity = Severity.ERROR
    message = (
        "`{manager}()` is a context manager Dynamo cannot enter while tracing: it gives up on "
        "the whole function, which runs eagerly with no graph"
    )
    hint = (
        "enter it outside the compiled function (around the call of the compiled model), or "
        "drop it where the setting is already the default"
    )
    fix_safety = """
No automatic fix: these context managers set global state Dynamo cannot record: the `with` has
to move around the call of the compiled function, outside the function flagged.
"""
    what = """
Flags `with` on the torch context managers that Dynamo does not support:
`torch.backends.cudnn.flags`, `torch.backends.mkldnn.flags`, `torch.backends.cuda.sdp_kernel`,
`torch.random.fork_rng`, `torch.autograd.detect_anomaly`, `torch.autograd.set_detect_anomaly`,
`torch.autograd.graph.save_on_cpu`, `torch.autograd.graph.saved_tensors_hooks` and
`torch.device` (`with torch.device("cpu"):`, the default device for new tensors). The grad
modes, autocast, `torch.nn.attention.sdpa_kernel` and profiler ranges are supported and not
flagged.
"""
    why = """
Dynamo knows how to record a few context managers in a graph. The others change global state
(backend flags, the RNG, autograd hooks, the default device) through Python code that it will
not trace, and it cannot resume inside a `with` block it did not enter, so it skips the whole
function: it runs eagerly, and only the functions it calls are compiled on their own.
"""
    example = """
import torch


def smoothed(x):
    with torch.backends.cudnn.flags(enabled=False):
        y = torch.nn.functional.avg_pool1d(x, 3)
    return y * 2


compiled = torch.compile(smoothed)
"""
    use_instead = """
import torch


def smoothed(x):
    y = torch.nn.functional.avg_pool1d(x, 3)
    return y * 2


compiled = torch.compile(smoothed)
with torch.backends.cudnn.flags(enabled=False):
    compiled(torch.randn(2, 4, 9))
"""
    probe = "(smoothed, (torch.randn(2, 4, 9),))"
    gb_ids = ("GB0142",)
    breaks_graph = False  # the whole frame is skipped already, loop or not

    def visit_withitem(self, node: ast.withitem) -> None:
        manager = node.context_expr
        if not isinstance(manager, ast.Call):
            return
        name = self.context.facts.resolve(manager.func)
        name = CONTEXT_MANAGER_ALIASES.get(name or "", name)
        if name in UNSUPPORTED_CONTEXT_MANAGERS:
            self.report(manager, self.message.format(manager=name))
