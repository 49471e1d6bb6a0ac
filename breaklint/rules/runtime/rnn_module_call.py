import ast
from functools import cache

from breaklint.class_attributes import public_module_name
from breaklint.findings import Severity
from breaklint.rule import Outline, Rule, RuleContext

RECURRENT_MODULES = frozenset({"torch.nn.RNN", "torch.nn.LSTM", "torch.nn.GRU"})


@cache
def _recurrent(constructors: tuple[str, ...]) -> tuple[str, ...]:
    """The recurrent modules among what an attribute is assigned, sorted: asked at every
    `self.<attribute>` a method reads, of a few distinct assignments."""
    return tuple(sorted({public_module_name(c) for c in constructors} & RECURRENT_MODULES))


class RnnModuleCall(Rule):
    code = "BL506"
    name = "rnn-module-call"
    severity = Severity.ERROR
    message = (
        "`self.{attribute}` is a `{module}`, which Dynamo refuses to trace: it gives up on the "
        "whole function, which runs eagerly with no graph"
    )
    hint = (
        "run the recurrent layer outside the compiled region, or set "
        "torch._dynamo.config.allow_rnn = True (experimental) to trace it"
    )
    fix_safety = """
No automatic fix: Dynamo does not trace the recurrent modules by default; what decides is a
config setting (`torch._dynamo.config.allow_rnn`) or where the compiled region ends, not the
statement, and writing the recurrence out by hand would replace the module's kernels.
"""
    what = """
Flags the first use, in compiled code, of a submodule that the same class creates as
`nn.RNN`, `nn.LSTM` or `nn.GRU` (`self.lstm = nn.LSTM(...)` in `__init__`): calling it
(`self.lstm(x)`) or reading anything of it (`self.lstm.num_layers`,
`self.lstm.flatten_parameters()`). Only the first use in the function is flagged: Dynamo gives
up there.
"""
    why = """
Dynamo refuses to wrap the recurrent modules by default (`torch._dynamo.config.allow_rnn` is
False): their cuDNN path flattens weights behind Python's back. It refuses as soon as the code
touches the module, so reading its `num_layers` to size a hidden state fails just like calling
it. It cannot resume there either, so it skips the whole function, which runs eagerly: no graph
at all for it, and only the functions it calls get compiled on their own.
"""
    example = """
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 8, batch_first=True)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        output, _ = self.lstm(x * 2)
        return self.head(output)


compiled = torch.compile(Tagger())
"""
    use_instead = """
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.mix = nn.Conv1d(8, 8, kernel_size=3, padding=1)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        output = self.mix((x * 2).transpose(1, 2)).transpose(1, 2)
        return self.head(output)


compiled = torch.compile(Tagger())
"""
    probe = "(Tagger(), (torch.randn(2, 5, 8),))"
    gb_ids = ("GB0014",)
    breaks_graph = False  # the whole frame is skipped already, loop or not

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """A method whose class makes a recurrent module (asked last: the class is read)."""
        return "self" in outline.words and any(
            public_module_name(made) in RECURRENT_MODULES
            for made in outline.self_assignments.made()
        )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._reported = False  # Dynamo gives up at the first use: later ones never run

    def visit_Call(self, node: ast.Call) -> None:
        # A call is reported at the call; its `self.<attribute>` is visited next.
        self._use(node.func, node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self._use(node, node)

    def _use(self, expression: ast.expr, where: ast.AST) -> None:
        if self._reported or not (
            isinstance(expression, ast.Attribute)
            and isinstance(expression.value, ast.Name)
            and expression.value.id == "self"
        ):
            return
        constructors = self.context.self_assignments.callees(expression.attr)
        if not constructors:
            return
        recurrent = _recurrent(constructors)
        if recurrent:
            module = " or ".join(f"nn.{name.rpartition('.')[2]}" for name in recurrent)
            self.report(where, self.message.format(attribute=expression.attr, module=module))
            self._reported = True
