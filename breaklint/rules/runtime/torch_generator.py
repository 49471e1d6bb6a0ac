import ast

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.rule import Rule, RuleContext, called
from breaklint.syntax import dotted, method_call

GENERATOR = "torch.Generator"
# Tensor methods that draw random numbers and take `generator=` (torch functions are matched by
# their `torch.` name instead).
RANDOM_METHODS = frozenset(
    {
        "normal_", "uniform_", "bernoulli", "bernoulli_", "random_", "exponential_",
        "geometric_", "cauchy_", "log_normal_", "multinomial",
    }
)  # fmt: skip


class TorchGenerator(Rule):
    code = "BL508"
    name = "torch-generator"
    words = called(GENERATOR) | {"generator"}  # made here, or passed as `generator=`
    severity = Severity.ERROR
    message = (
        "`generator=` passes a `torch.Generator` to `{call}`: Dynamo cannot put a generator "
        "in a graph, so it breaks the graph here and draws eagerly"
    )
    made_message = (
        "`torch.Generator()` makes an opaque object that Dynamo cannot create inside a graph; "
        "it breaks the graph here"
    )
    maybe_message = (
        "`generator=` may pass a `torch.Generator` to `{call}`: if it is not None, Dynamo "
        "cannot put it in a graph and breaks the graph here"
    )
    hint = (
        "draw from the global RNG inside compiled code (seed it once outside with "
        "`torch.manual_seed`), or draw the noise outside and pass it in"
    )
    fix_safety = """
No automatic fix: drawing from the global random stream instead of the generator, or drawing
the noise outside and passing it in, changes which numbers are drawn: the eager outputs differ.
"""
    what = """
Flags, in compiled code, a `generator=` argument that is not `None` given to a torch random
function (`torch.randn(..., generator=g)`, `torch.randint`, `torch.bernoulli`,
`torch.randperm`, `torch.normal`...) or to a tensor's random method (`x.normal_(generator=g)`,
`x.uniform_`, `x.multinomial`...), and `torch.Generator()` made there. The finding is an error
where the argument is certainly a generator (made by `torch.Generator()`, in the function or on
`self` in another method), and a warning where it may be `None` at run time (a parameter
passed through). `generator=None` is not flagged.
"""
    why = """
Dynamo records random ops against the global RNG state. A `torch.Generator` is an opaque
object it cannot turn into a graph input, so the call fails to convert its arguments ("Failed
to convert args/kwargs to proxy", GB0055): Dynamo breaks the graph there and runs the draw
eagerly. Making a generator inside the compiled code breaks too ("An opaque object was created
in the middle of the program", GB0363), and so does seeding one (`g.manual_seed`, GB7650).
"""
    example = """
import torch

generator = torch.Generator().manual_seed(0)


def noisy(x):
    y = x * 2
    return y + torch.randn(y.shape, generator=generator)


compiled = torch.compile(noisy)
"""
    use_instead = """
import torch


def noisy(x):
    y = x * 2
    return y + torch.randn(y.shape)


torch.manual_seed(0)
compiled = torch.compile(noisy)
"""
    probe = "(noisy, (torch.randn(8),))"
    gb_ids = ("GB0055", "GB0363")

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._generators: set[str] = set()  # local names certainly bound to a generator

    def leave_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                if self._made_here(node.value):
                    self._generators.add(target.id)
                else:
                    self._generators.discard(target.id)

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        if name == GENERATOR:
            self.report(node, self.made_message)
            return
        value = next((k.value for k in node.keywords if k.arg == "generator"), None)
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            return
        call = method_call(node)
        if name is not None and name.startswith("torch.") and not name.startswith("torch.utils."):
            written = name  # `torch.utils.data` takes generators outside any graph
        elif (
            call is not None
            and call[1] in RANDOM_METHODS
            and facts.kind(call[0]) is not Kind.PYTHON
        ):
            written = f".{call[1]}()"
        else:
            return
        if self._certain(value):
            self.report(value, self.message.format(call=written))
        else:
            message = self.maybe_message.format(call=written)
            self.report(value, message, severity=Severity.WARNING)

    def _made_here(self, value: ast.expr) -> bool:
        """`torch.Generator(...)`, seeded or not (`torch.Generator().manual_seed(0)`)."""
        while isinstance(value, ast.Call):
            if self.context.facts.resolve(value.func) == GENERATOR:
                return True
            call = method_call(value)
            if call is None or call[1] != "manual_seed":
                return False
            value = call[0]
        return False

    def _certain(self, value: ast.expr) -> bool:
        if self._made_here(value):
            return True
        if isinstance(value, ast.Name):
            return value.id in self._generators
        attribute = dotted(value)
        if attribute is not None and attribute.startswith("self.") and attribute.count(".") == 1:
            made = self.context.self_assignments.callees(attribute.removeprefix("self."))
            return bool(made) and all(callee == GENERATOR for callee in made)
        return False
