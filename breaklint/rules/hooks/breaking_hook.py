from collections.abc import Sequence
from dataclasses import replace

from breaklint.findings import Finding, Origin, Severity, Status
from breaklint.rule import Report, Rule, all_rules
from breaklint.scope import Scope, ScopedFunction
from breaklint.source import column


class BreakingHook(Rule):
    """Reported at a hook's registration, from the reports of the other rules in the hook's
    body (every registered hook is a compile root, so they check it)."""

    code = "BL701"
    name = "breaking-hook"
    severity = Severity.WARNING
    breaks_graph = False
    reads_breaks = True
    message = "the registered hook breaks the graph of every module call it runs in"
    hint = (
        "make the hook pure tensor math, or guard its side effects with "
        "`if not torch.compiler.is_compiling():`"
    )
    fix_safety = """
No automatic fix: the hook breaks because of code in it that another rule flags (a `print`,
`.item()`), and that rule offers its fix where one exists.
"""
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

    @classmethod
    def function_findings(
        cls, path: str, function: ScopedFunction, reports: Sequence[Report], lines: list[str]
    ) -> list[Finding]:
        """Mention a hook's graph breaks where the hook is registered (same file only)."""
        rules = all_rules()
        codes = sorted({r.code for r in reports if rules[r.code].breaks_graph})
        if not codes:
            return []
        message = (
            f"hook `{function.qualname}` breaks the graph ({', '.join(codes)} inside it): "
            "Dynamo inlines hooks into the compiled module's graph, so every call of the "
            "module is split"
        )
        return [
            cls.finding(
                path,
                registration.line,
                column(lines[registration.line - 1], registration.offset),
                registration.end_line,
                column(lines[registration.end_line - 1], registration.end_offset),
                message=message,
                scope=function.scope,
            )
            for registration in function.registrations
        ]

    @classmethod
    def dynamic_status(cls, finding: Finding, joined: Sequence[Finding]) -> Finding:
        """A registration takes the status of the breaks inside the hook it registers (the
        findings of the same file in the hook's compile scope), with the first confirmed one's
        evidence: the registration line itself never runs under Dynamo."""
        scope = finding.scope
        scopes = (scope,) if scope is None else (scope, Scope(scope.root, reached=True))
        inside = [
            f
            for f in joined
            if f.path == finding.path
            and f.code != cls.code
            and f.origin == Origin.STATIC
            and f.scope in scopes
        ]
        for status in (Status.CONFIRMED, Status.NOT_REPRODUCED):
            hits = [f for f in inside if f.status == status]
            if hits:
                return replace(
                    finding, status=status, evidence=finding.evidence or hits[0].evidence
                )
        return finding
