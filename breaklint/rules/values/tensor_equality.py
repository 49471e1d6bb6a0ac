import ast

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.rule import Rule, RuleContext

# Tensor comparisons that answer with one Python bool: they read every value of both tensors.
FUNCTIONS = frozenset({"torch.equal", "torch.allclose"})
METHODS = frozenset({"equal", "allclose"})


class TensorEquality(Rule):
    code = "BL105"
    name = "tensor-equality"
    severity = Severity.ERROR
    message = (
        "`{call}` compares tensors' values into a Python bool; Dynamo traces without values, "
        "so it breaks the graph here"
    )
    hint = (
        "keep the answer a tensor (`(a == b).all()`, `torch.isclose(a, b).all()`) and select "
        "with `torch.where`, or compare outside the compiled code"
    )
    fix_safety = """
No automatic fix: the answer is a Python bool that the code around it branches on (a cache hit,
a shortcut for equal inputs); keeping it a tensor means computing both branches and selecting
with `torch.where`, or moving the comparison out of the compiled code, which changes the code
around it.
"""
    what = """
Flags `torch.equal(a, b)`, `a.equal(b)`, `torch.allclose(a, b)` and `a.allclose(b)` on tensors
in compiled code: an error, or a warning where `and`/`or` may not evaluate the call or where
the receiver of the method is taken for a tensor only because it is a parameter of the
compiled function. `torch.equal` and `torch.allclose` take tensors only, so they are a warning
where neither argument is known (`for a, b in zip(xs, ys)` over lists built elsewhere). Their
answer is a Python bool, not a tensor: a branch on it (`if same:`) is not a break of its own,
the call is.
"""
    why = """
Both functions compare every element and return `True` or `False` to Python. Dynamo traces
with fake tensors, which have no values, so it cannot produce that bool: the call is a
data-dependent operator ("Data dependent operator", GB0033) and Dynamo breaks the graph there
to run it eagerly. Inside a loop or a generator passed to `all()` it skips the whole frame.
"""
    example = """
import torch


def cached_distance(x1, x2):
    d = torch.cdist(x1, x2)
    if torch.equal(x1, x2):
        d = d.fill_diagonal_(0)
    return d * 2


compiled = torch.compile(cached_distance)
"""
    use_instead = """
import torch


def cached_distance(x1, x2):
    d = torch.cdist(x1, x2)
    return d * 2


compiled = torch.compile(cached_distance)
"""
    probe = "(cached_distance, (torch.randn(4, 3), torch.randn(4, 3)))"
    gb_ids = ("GB0033",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._short_circuited: set[int] = set()  # ids of nodes `and`/`or` may not evaluate

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        # `interpolating or torch.equal(a, b)`: only the first operand surely runs.
        for operand in node.values[1:]:
            self._short_circuited.update(id(inner) for inner in ast.walk(operand))

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        maybe = id(node) in self._short_circuited
        if name in FUNCTIONS:
            kinds = [facts.kind(argument) for argument in node.args[:2]]
            if any(kind.is_tensor for kind in kinds):
                severity = Severity.WARNING if maybe else None
                self.report(node, self.message.format(call=f"{name}()"), severity=severity)
            elif len(kinds) == 2 and Kind.PYTHON not in kinds:
                # The function takes tensors only: arguments of unknown kind are tensors in
                # every run that gets past it, or objects that stand in for them.
                self.report(node, self.message.format(call=f"{name}()"), severity=Severity.WARNING)
            return
        call = facts.tensor_method(node)
        if call is None or call[1] not in METHODS or not node.args:
            return
        receiver, method = call
        if facts.kind(receiver).is_tensor:
            # A receiver taken for a tensor only because it is a root parameter: a maybe.
            maybe = maybe or facts.rests_on_guess(receiver)
            severity = Severity.WARNING if maybe else None
            self.report(node, self.message.format(call=f".{method}()"), severity=severity)
