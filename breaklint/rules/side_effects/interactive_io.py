import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import removal_fix
from breaklint.rule import FixExample, Rule, called

# Debugger entry points: removing the call changes no value the program computes.
DEBUGGERS = ("breakpoint", "pdb.set_trace")
CALLS = {
    "breakpoint": "`breakpoint()` stops in a debugger",
    "pdb.set_trace": "`pdb.set_trace()` stops in a debugger",
    "input": "`input()` waits for the user",
    "open": "`open()` touches the file system",
}


class InteractiveIo(Rule):
    code = "BL404"
    name = "interactive-io"
    words = called(*CALLS)
    severity = Severity.ERROR
    message = "{what}: Dynamo cannot trace it and breaks the graph here to run it eagerly"
    hint = (
        "do the I/O or debugging outside the compiled code, or guard it with "
        "`if not torch.compiler.is_compiling():`"
    )
    what = """
Flags `breakpoint()`, `pdb.set_trace()`, `input()` and `open()` in compiled code.
"""
    why = """
These calls act on the world outside the program's tensors: a debugger, the terminal, the file
system. None of that can be recorded in a graph, so Dynamo breaks the graph and runs the call
eagerly; a debugger then stops in Dynamo's resumed frame, not in the code you wrote.
"""
    example = """
import torch


def scaled(x, path="/dev/null"):
    y = x * 2
    with open(path, "a") as log:
        log.write("step")
    return y + 1


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def scaled(x):
    return x * 2 + 1


def record_step(path="/dev/null"):
    with open(path, "a") as log:
        log.write("step")


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"

    fix_examples = (
        FixExample(
            before="""
import torch


def scaled(x):
    y = x * 2
    # look at y here
    breakpoint()
    return y + 1


compiled = torch.compile(scaled)
""",
            after="""
import torch


def scaled(x):
    y = x * 2
    # look at y here
    return y + 1


compiled = torch.compile(scaled)
""",
            probe="(scaled, (torch.randn(8),))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    fix_safety = """
Unsafe fix: a `breakpoint()` or `pdb.set_trace()` that is a whole statement is removed, so no
run stops in the debugger any more (values computed are unchanged; comment lines above it
stay). Offered when the call is alone on its lines; a block left empty gets `pass`. `input()`
and `open()` have no automatic fix: their results are used.
"""

    def visit_Call(self, node: ast.Call) -> None:
        name = self.context.facts.resolve(node.func)
        if name in CALLS and name not in self.context.facts.names:
            fix = None
            if name in DEBUGGERS and not node.args and not node.keywords:
                fix = removal_fix(
                    self.context, node, "remove the debugger call", self.fix_applicability
                )
            self.report(node, self.message.format(what=CALLS[name]), fix=fix)
