import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.tensorness import Kind

# Modules (and functions) Dynamo marks as skipped, each with the specific way out.
ALTERNATIVES = {
    "time.": "time outside the compiled function (or with torch.cuda.Event) and pass it in",
    "random.": "draw random numbers with torch ops (`torch.rand`, `torch.randint`): they trace",
    "json.": "serialize outside the compiled function and pass the result in",
    "pickle.": "serialize outside the compiled function and pass the result in",
    "zlib.": "checksum outside the compiled function and pass the result in",
    "datetime.": "read the date outside the compiled function and pass it in",
    "uuid.": "make identifiers outside the compiled function and pass them in",
    "copy.deepcopy": "copy tensors with `t.clone()` (or `t.detach().clone()`): Dynamo traces it",
}


class UntraceableStdlibCall(Rule):
    code = "BL501"
    name = "untraceable-stdlib-call"
    severity = Severity.ERROR
    message = (
        "`{call}()` is a Python runtime call Dynamo does not trace (clock, Python RNG, "
        "serialization or deep copy); it breaks the graph here to run it eagerly"
    )
    hint = "move the call outside the compiled code and pass its result in"
    what = """
Flags calls into `time`, Python's `random`, `json`, `pickle`, `zlib`, `datetime`, `uuid` and
`copy.deepcopy` in compiled code.
"""
    why = """
These functions are implemented in C or touch the process's state (the clock, the Python RNG,
files and buffers). Dynamo marks them as skipped (GB0007, "Attempted to call function marked as
skipped"; `copy.deepcopy` fails inside `copy.py`, GB4198), breaks the graph and calls them
eagerly. Python's RNG would also be frozen into the graph if it were traced.
"""
    example = """
import random

import torch


def jitter(x):
    y = x * 2
    return y + random.random()


compiled = torch.compile(jitter)
"""
    use_instead = """
import torch


def jitter(x):
    y = x * 2
    return y + torch.rand(())


compiled = torch.compile(jitter)
"""
    probe = "(jitter, (torch.randn(8),))"
    gb_ids = ("GB0007", "GB4198")

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        if name is None or name.partition(".")[0] in self.context.facts.names:
            return
        copies_python_data = (
            name == "copy.deepcopy"
            and node.args
            and self.context.facts.kind(node.args[0]) is Kind.PYTHON
        )
        if copies_python_data:
            return  # Dynamo traces the deep copy of plain Python data (a config dict)
        for prefix, alternative in ALTERNATIVES.items():
            if name == prefix or (prefix.endswith(".") and name.startswith(prefix)):
                self.report(node, self.message.format(call=name), hint=alternative)
                return
