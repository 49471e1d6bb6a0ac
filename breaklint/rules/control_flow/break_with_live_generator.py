from __future__ import annotations

import ast

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.knowledge.curated import GENERATOR_BUILTINS, MODULE_GENERATOR_METHODS
from breaklint.rule import FixExample, Report, RuleContext
from breaklint.rules.control_flow._frame_skip import FrameSkip
from breaklint.rules.control_flow.graph_break_in_generator import CONSUMERS
from breaklint.syntax import dotted, iter_nodes, makes_generator


class BreakWithLiveGenerator(FrameSkip):
    code = "BL210"
    name = "break-with-live-generator"
    severity = Severity.ERROR
    # Each generator a call is given, or a local holds, is its own block (see `block_of`).
    words = frozenset({"for", *GENERATOR_BUILTINS, *MODULE_GENERATOR_METHODS})
    skips_at_the_call = True
    message = (
        "graph break ({codes}) while a generator is alive in this frame: Dynamo cannot rebuild "
        "the generator to resume after the break, so it skips the whole frame and `{function}` "
        "runs eagerly, with no graph at all"
    )
    hint = (
        "make the generator a list before the break (`list(self.parameters())`, a list "
        "comprehension), or make the break traceable (see {codes})"
    )
    fix_safety = """
Unsafe fix: where a call is given the generator, each generator argument becomes a list
(`list(self.parameters())`, a list comprehension for a generator expression). Dynamo rebuilds
a list, so the caller resumes after the callee's break instead of running eagerly (measured on
2.13); the break inside the callee stays, with its own rule's fix. Unsafe: the callee gets every
value at once, which differs where it stops early, iterates twice expecting the second pass to
be empty, or checks for a generator. No fix for a local holding a generator across a break:
the break's own fix, or a list where the local is bound, is the user's choice.
"""
    what = """
Flags a graph break that happens while a generator object is alive in the compiled function:
at a call that breaks the graph (a project function that breaks inside it, or a call another
rule flags) and is given a generator expression, an `enumerate(...)` object (Dynamo makes it a
generator of its own) or an `nn.Module` generator (`self.parameters()`, `named_parameters()`,
`buffers()`, `children()`, `modules()` and their `named_` forms) as an argument, and at a
break after a local is bound to one of them and before the local's last use. A generator
that `all`, `any`, `sum` and the like consume is BL206's; a generator made by the project's
own generator function is rebuilt (measured, not flagged), and one consumed before the break
(`list(params)`) is gone.
"""
    why = """
To resume after a graph break, Dynamo rebuilds every live object of the frame in the code it
generates. It cannot rebuild a generator it has started tracing ("Generator reconstruction
with mutations", GB8335): it gives up on the whole frame, which runs eagerly (measured with
torch 2.13 and Python 3.11, for `self.parameters()`, `self.modules()` and a generator
expression given to a function that prints, positionally or by keyword, and for
`params = self.parameters()` alive across a `print`, and for `enumerate(...)` given to such
a function or held across a `print`). Gradient checkpointing helpers that take
`self.parameters()` and break inside are the common case.
"""
    example = """
import torch


def checked(func, inputs, params):
    print("recomputing", len(inputs))
    return func(*inputs)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        return checked(self.inner, (x,), self.parameters())

    def inner(self, x):
        return self.proj(x).relu()


compiled = torch.compile(Block())
"""
    use_instead = """
import torch


def checked(func, inputs, params):
    return func(*inputs)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        return checked(self.inner, (x,), list(self.parameters()))

    def inner(self, x):
        return self.proj(x).relu()


compiled = torch.compile(Block())
"""
    probe = "(Block(), (torch.randn(2, 8),))"
    gb_ids = ("GB8335",)
    fix_applicability = Applicability.UNSAFE
    fix_examples = (
        FixExample(
            before="""
import torch


def recompute(func, inputs, params):
    print("recomputing with", sum(p.numel() for p in params), "parameters")
    return func(*inputs)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        return recompute(self.inner, (x,), self.parameters())

    def inner(self, x):
        return self.proj(x).relu()


compiled = torch.compile(Block())
""",
            after="""
import torch


def recompute(func, inputs, params):
    print("recomputing with", sum(p.numel() for p in params), "parameters")
    return func(*inputs)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x):
        return recompute(self.inner, (x,), list(self.parameters()))

    def inner(self, x):
        return self.proj(x).relu()


compiled = torch.compile(Block())
""",
            probe="(Block(), (torch.randn(2, 8),))",
            counts=(1, 2),  # the print in `recompute` still breaks, but `forward` resumes
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._given: dict[int, ast.Call] = {}  # calls given a generator, by id
        self._held: dict[str, ast.Assign] = {}  # locals bound to a generator: the binding
        self._uses: dict[str, int] | None = None  # each held local's last line of use
        self._conditional: dict[int, bool] = {}  # by id of a report: under a trace-time `if`

    def skip_fix(self, node: ast.AST) -> Fix | None:
        if id(node) not in self._given:
            return None  # a local holds the generator: no fix (see the page)
        message = "give the call a list of the generator's values"
        return offer(self.context, node, message, "listed", self.fix_applicability)

    def _makes_generator(self, node: ast.expr) -> bool:
        """`syntax.makes_generator`, where a project method of the name is not what it calls."""
        return makes_generator(node) and not (
            type(node) is ast.Call and dotted(node.func) in self.context.facts.project_calls
        )

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        values = [*node.args, *(keyword.value for keyword in node.keywords)]
        # (a consuming builtin runs the generator to its end there: BL206's)
        if not (type(func) is ast.Name and func.id in CONSUMERS) and any(
            self._makes_generator(value) for value in values
        ):
            self._given[id(node)] = node
        super().visit_Call(node)  # a break inside the callee is reported at this call

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if type(target) is ast.Name:
                if self._makes_generator(node.value):
                    self._held[target.id] = node
                else:
                    self._held.pop(target.id, None)

    def observe(self, report: Report) -> None:
        self._conditional[id(report)] = self.context.facts.conditional

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        if id(report) not in self._conditional:
            return None
        if id(report.node) in self._given:
            return id(report.node), self._conditional[id(report)]
        at = getattr(report.node, "lineno", 0)
        for name, binding in self._held.items():
            if binding.lineno < at < self._last_uses().get(name, 0):
                return id(binding), self._conditional[id(report)]
        return None

    def _last_uses(self) -> dict[str, int]:
        """The last line each held local is read on (one walk, only where a local holds a
        generator)."""
        if self._uses is None:
            self._uses = {}
            for node in iter_nodes(self.context.definition):
                if type(node) is ast.Name and node.id in self._held:
                    self._uses[node.id] = max(self._uses.get(node.id, 0), node.lineno)
        return self._uses
