import ast

from breaklint.findings import Severity
from breaklint.rule import Rule
from breaklint.syntax import negated, without_not


class DataDependentBranch(Rule):
    code = "BL201"
    name = "data-dependent-branch"
    severity = Severity.ERROR
    message = (
        "{construct} decides on a tensor's value; Dynamo cannot know which way it goes while "
        "tracing, so it breaks the graph here"
    )
    hint = (
        "keep the choice in the graph: `torch.where(cond, a, b)` for values, "
        "`torch.cond(pred, true_fn, false_fn)` for branches; or decide on shapes or flags"
    )
    what = """
Flags `if`, `elif`, `while`, conditional expressions, comprehension filters and `and`/`or`
whose truth depends on tensor data (`if t.sum() > 0`, `if (t > 0).any()`, `if score > 0` where
`score` is a tensor). Shapes, dtypes, devices, `None` checks, `self.training` and config flags
are known while tracing and are never flagged; neither is `assert t`, which Dynamo traces into
the graph, but `and`, `or` and `not` inside an `assert` are (`assert (t > 0).all() and
t.sum() != 0` calls `bool()` on the first tensor).

A finding is an error when the value is certainly a tensor, and a warning when the break
depends on something else: the condition sits behind a trace-time test (`x.dtype ==
torch.float16 and not torch.isfinite(x).all()`, a branch under `if self.training:`), or its
only tensor is a parameter of the compiled function that no tensor operation has touched
(`if scale > 0` may compare a Python number). A bare parameter as a condition (`if flag:`) is
taken for a Python flag: the truth of a multi-element tensor raises even in eager mode.
"""
    why = """
Python must call `bool()` on the tensor to pick a branch, which needs its value. Dynamo traces
with fake tensors and cannot know it, so it ends the graph at the jump (GB0170, "Data-dependent
branching"), runs the comparison eagerly and compiles each side separately.
"""
    example = """
import torch


def clip_positive(x):
    y = x * 2
    if y.sum() > 0:
        return y - 1
    return y + 1


compiled = torch.compile(clip_positive)
"""
    use_instead = """
import torch


def clip_positive(x):
    y = x * 2
    return torch.where(y.sum() > 0, y - 1, y + 1)


compiled = torch.compile(clip_positive)
"""
    probe = "(clip_positive, (torch.randn(8),))"
    gb_ids = ("GB0170",)

    def __init__(self, context) -> None:
        super().__init__(context)
        self._tests: set[int] = set()  # conditions already judged as a whole

    def _check(self, test: ast.expr, construct: str) -> None:
        self._mark(test)
        facts = self.context.facts
        if not facts.reads_tensor_value(test):
            return
        # `x.dtype == torch.float16 and not torch.isfinite(x).all()`: Python stops at a false
        # trace-time operand, so the tensor is read only in the configurations that pass it.
        guarded = (
            isinstance(test, ast.BoolOp)
            and isinstance(test.op, ast.And)
            and not facts.reads_tensor_value(test.values[0])
        )
        # `if scale > 0` where `scale` is a parameter never touched by a tensor operation:
        # quite possibly a Python number passed in, so a warning rather than an error.
        uncertain = guarded or facts.rests_on_guess(without_not(test))
        severity = Severity.WARNING if uncertain and self.severity is Severity.ERROR else None
        message = self.message.format(construct=construct)
        self.report(self._first_tensor_read(test), message, severity=severity)

    def _first_tensor_read(self, test: ast.expr) -> ast.expr:
        """The operand of `and`/`or` whose truth Python reads first from a tensor: the part of
        the condition that breaks, which may run only in some configurations."""
        facts = self.context.facts
        if isinstance(test, ast.BoolOp):
            for operand in facts.traced_operands(test):
                if facts.reads_tensor_value(operand):
                    return self._first_tensor_read(operand)
        return test

    def _mark(self, test: ast.expr) -> None:
        test = without_not(test)
        if isinstance(test, ast.BoolOp):
            self._tests.add(id(test))
            for value in test.values:
                self._mark(value)

    def visit_If(self, node: ast.If) -> None:
        if id(node) not in self._tests:
            self._check(node.test, "`if`")
        elif_ = _elif_of(node)
        if elif_ is not None:
            self._tests.add(id(elif_))
            self._check(elif_.test, "`elif`")

    def visit_While(self, node: ast.While) -> None:
        self._check(node.test, "`while`")

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._check(node.test, "a conditional expression")

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for test in node.ifs:
            self._check(test, "a comprehension filter")

    def visit_Assert(self, node: ast.Assert) -> None:
        # `assert t` on a tensor becomes torch._assert in the graph, but `and`, `or` and `not`
        # inside it call bool() on their tensor operands first.
        self._mark(node.test)
        forced = self._forced_truth(node.test)
        if forced is not None:
            severity = Severity.WARNING if self.context.facts.rests_on_guess(forced) else None
            construct = "`not`" if negated(node.test) is not None else "`and`/`or`"
            message = self.message.format(construct=f"{construct} inside an `assert`")
            self.report(node.test, message, severity=severity)

    def _forced_truth(self, test: ast.expr) -> ast.expr | None:
        """The tensor operand whose truth an asserted `test` computes in Python, if any."""
        facts = self.context.facts
        if isinstance(test, ast.BoolOp):
            *first, last = facts.traced_operands(test)
            for operand in first:
                if facts.reads_tensor_value(operand):
                    return operand
            return self._forced_truth(last)
        negated_operand = negated(test)
        if negated_operand is not None and facts.reads_tensor_value(negated_operand):
            return negated_operand
        return None

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        if id(node) in self._tests:
            return
        self._mark(node)
        # `a or b` used as a value needs the truth of every operand but the last.
        facts = self.context.facts
        if any(facts.reads_tensor_value(value) for value in facts.traced_operands(node)[:-1]):
            operator = "and" if isinstance(node.op, ast.And) else "or"
            self.report(node, self.message.format(construct=f"`{operator}`"))


def _elif_of(node: ast.If) -> ast.If | None:
    """The `elif` of an `if`, not an `if` nested under `else:`, which is indented further."""
    orelse = node.orelse
    if len(orelse) == 1 and isinstance(orelse[0], ast.If):
        nested = orelse[0]
        return nested if nested.col_offset == node.col_offset else None
    return None
