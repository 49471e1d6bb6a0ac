import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import guard_fix
from breaklint.rule import FixExample, Rule

_VERBOSE = """
import torch


def scaled(x, verbose=False):
    y = x * 2
    if verbose: print("scaled", y.shape)  # on request
    return y + 1


compiled = torch.compile(scaled)
"""


class PrintCall(Rule):
    code = "BL401"
    name = "print-call"
    words = frozenset({"print"})
    severity = Severity.ERROR
    message = (
        "`print()` is a side effect Dynamo cannot put in a graph; it breaks the graph here to "
        "run it eagerly"
    )
    hint = (
        "remove it, guard it with `if not torch.compiler.is_compiling():`, or let Dynamo "
        "defer it: torch._dynamo.config.reorderable_logging_functions.add(print)"
    )
    what = """
Flags calls of the builtin `print` in compiled code.
"""
    why = """
A graph holds tensor operations only. Printing must happen when the Python line runs, so Dynamo
ends the graph before `print`, calls it eagerly and starts a new graph after it (GB0059).
"""
    example = """
import torch


def scaled(x):
    y = x * 2
    print("scaled", y.shape)
    return y + 1


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def scaled(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        print("scaled", y.shape)
    return y + 1


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    fix_applicability = Applicability.UNSAFE
    fix_safety = """
Unsafe fix: the statement is guarded with `if not torch.compiler.is_compiling():`, so eager runs
keep the output and compiled runs skip it. Offered when the call is a whole statement on its own
lines (a comment may follow it), or the whole body of a one-line `if` whose test calls nothing
(`if verbose: print(...)`), which is guarded whole; the file's name for torch is used, and
`import torch` is added when the file has none. The same holds for the logging (BL402),
warning (BL403) and other telling statements other rules guard.
"""
    gb_ids = ("GB0059",)
    fix_examples = (
        FixExample(example, use_instead, probe),
        FixExample(
            before=_VERBOSE,
            after=_VERBOSE.replace(
                "    if verbose:",
                "    if not torch.compiler.is_compiling():\n        if verbose:",
            ),
            probe="(scaled, (torch.randn(8), True))",
        ),
    )

    def visit_Call(self, node: ast.Call) -> None:
        if (
            self.context.facts.resolve(node.func) == "print"
            and "print" not in self.context.facts.names
        ):
            self.report(node, fix=guard_fix(self.context, node, self.fix_applicability))
