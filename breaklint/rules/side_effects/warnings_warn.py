import ast

from breaklint.findings import Applicability, Severity
from breaklint.fixes import guard_fix
from breaklint.rule import FixExample, Rule, called


class WarningsWarn(Rule):
    code = "BL403"
    name = "warnings-warn"
    words = called("warnings.warn", "warnings.warn_explicit")
    severity = Severity.ERROR
    message = (
        "`warnings.warn()` is a side effect (it inspects the stack and the warning registry); "
        "Dynamo breaks the graph here to run it eagerly"
    )
    hint = (
        "check and warn outside the compiled code (in `__init__` or the caller), or guard it "
        "with `if not torch.compiler.is_compiling():`"
    )
    what = """
Flags `warnings.warn(...)` and `warnings.warn_explicit(...)` in compiled code.
"""
    why = """
`warnings.warn` is implemented in C, looks up the caller's frame and mutates the module's
warning registry. Dynamo cannot trace it, so it breaks the graph and calls it eagerly.
"""
    example = """
import warnings

import torch


def scaled(x):
    y = x * 2
    warnings.warn("scaling is deprecated")
    return y + 1


compiled = torch.compile(scaled)
"""
    use_instead = """
import warnings

import torch


def scaled(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        warnings.warn("scaling is deprecated")
    return y + 1


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    fix_examples = (FixExample(example, use_instead, probe),)
    fix_applicability = Applicability.UNSAFE
    fix_safety = """
Unsafe fix: the statement is guarded with `if not torch.compiler.is_compiling():`, so eager runs
keep the warning and compiled runs skip it. Offered when the call is a whole statement on its
own lines (a comment may follow it); the file's name for torch is used, and `import torch`
is added when the file has none.
"""

    def visit_Call(self, node: ast.Call) -> None:
        if self.context.facts.resolve(node.func) in ("warnings.warn", "warnings.warn_explicit"):
            self.report(node, fix=guard_fix(self.context, node, self.fix_applicability))
