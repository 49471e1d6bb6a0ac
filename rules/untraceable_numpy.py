import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.rules._numpy_support import traced_numpy_functions


class UntraceableNumpy(Rule):
    code = "BL601"
    name = "untraceable-numpy"
    severity = Severity.ERROR
    message = (
        "`{call}` has no counterpart in torch._numpy, so Dynamo cannot trace it and breaks "
        "the graph here (numpy functions it does know are traced as torch ops)"
    )
    hint = "use the torch equivalent, or compute it outside the compiled code"
    what = """
Flags calls of numpy functions that Dynamo's numpy tracing does not support. Dynamo traces
numpy code through `torch._numpy` (`np.sum`, `np.sort`, `np.linalg.norm`, `np.random.rand`...),
so those are not flagged. The supported set is read from the installed torch once per version
(in a subprocess, cached under the user cache folder), with a list for torch 2.13 as fallback.
"""
    why = """
For a numpy call Dynamo looks up the function of the same name in `torch._numpy`; when there is
none (`np.interp`, `np.histogram`, ...) it cannot trace the call, breaks the graph and runs
numpy eagerly on real arrays.
"""
    example = """
import numpy as np
import torch


def resample(x):
    grid = np.interp(np.linspace(0, 1, 8), np.array([0.0, 1.0]), np.array([0.0, 2.0]))
    return x * torch.from_numpy(grid).float()


compiled = torch.compile(resample)
"""
    use_instead = """
import numpy as np
import torch


def resample(x):
    grid = np.linspace(0, 1, 8) * 2.0
    return x * torch.from_numpy(grid).float()


compiled = torch.compile(resample)
"""
    probe = "(resample, (torch.randn(8),))"

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        if name is None or not name.startswith("numpy."):
            return
        if name not in traced_numpy_functions():
            self.report(node, self.message.format(call=name))
