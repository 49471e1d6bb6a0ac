from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer, only_notices, owns_its_lines
from breaklint.kinds import Kind
from breaklint.rule import FixExample, Rule, RuleContext, called
from breaklint.syntax import iter_nodes

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# Tensor comparisons that answer with one Python bool: they read every value of both tensors.
FUNCTIONS = frozenset({"torch.equal", "torch.allclose"})
METHODS = frozenset({"equal", "allclose"})
# What a test may call besides the comparisons and still have no effect of its own: skipping
# it while compiling skips nothing else.
PURE_CALLS = frozenset({"all", "any", "zip", "len", "isinstance", "enumerate", "range"})
# Tensor methods with an effect though their names do not end in `_` (the in-place ones do).
EFFECT_METHODS = frozenset({"backward", "register_hook", "retain_grad", "record_stream"})
SAME_OBJECT = (
    "compare by identity when compiling: `a is b if {torch}.compiler.is_compiling() else ...`"
)


def _identity(
    node: cst.Call, left: cst.BaseExpression, right: cst.BaseExpression, torch: str
) -> cst.IfExp:
    """`(left is right if torch.compiler.is_compiling() else <node>)`."""
    import libcst as cst

    from breaklint.rewrites import call

    compiler = cst.Attribute(cst.Name(torch), cst.Name("compiler"))
    return cst.IfExp(
        test=call(cst.Attribute(compiler, cst.Name("is_compiling"))),
        body=cst.Comparison(left, [cst.ComparisonTarget(cst.Is(), right)]),
        orelse=node,
        lpar=[cst.LeftParen()],
        rpar=[cst.RightParen()],
    )


def _same_object(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `same-object` fix: `torch.equal(a, b)` becomes `(a is b if
    torch.compiler.is_compiling() else torch.equal(a, b))`."""
    import libcst as cst

    if not isinstance(node, cst.Call) or len(node.args) < 2:
        return None
    return _identity(node, node.args[0].value, node.args[1].value, fix.torch)


def _same_object_method(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """`a.equal(b)` becomes `(a is b if torch.compiler.is_compiling() else a.equal(b))`."""
    import libcst as cst

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    return _identity(node, node.func.value, node.args[0].value, fix.torch)


class TensorEquality(Rule):
    code = "BL105"
    name = "tensor-equality"
    words = called(*FUNCTIONS) | METHODS
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
Unsafe fix: where the comparison is in the test of an `if` (not an `elif`, without `else`)
whose body only warns or prints (`warnings.warn`, `print`), or ends in a `raise` with no other
way out, and the test calls nothing but the comparisons, pure builtins (`all`, `any`,
`zip`, `len`...) and tensor methods that are not in place (`t.round()`), the whole `if` is
guarded with `if not torch.compiler.is_compiling():`:
eager runs check, warn and raise exactly as before; compiled code neither warns nor checks,
so a failing check no longer raises there. Elsewhere no fix is offered: the answer is a Python
bool that the code around it branches on (a cache hit, a shortcut for equal inputs); keeping
it a tensor means computing both branches and selecting with `torch.where`, or moving the
comparison out of the compiled code, which changes the code around it.

Unsafe fix, elsewhere: where `torch.equal(a, b)` (`a.equal(b)`, `allclose`) compares two names or
attributes of names (`x1`, `self.grid`) and its answer only picks a way through the code (the
test of an `if` whose branches raise nothing, of a conditional expression, or a name bound to
it that only such tests and calls' arguments read: a shortcut for equal inputs), it becomes
`(a is b if torch.compiler.is_compiling() else torch.equal(a, b))`. Eager runs compare as
before; compiled code takes the equal inputs' way only when both names hold the same tensor
(`kernel(x, x)`), which Dynamo knows while tracing, and the general way for equal tensors
that are different objects, or for a tensor holding NaN compared with itself (which
`torch.equal` calls unequal): the general way must give the same values, as a shortcut does.
Not offered where the answer decides a check (an `if` that raises, an `assert`, a returned
bool): compiled code would then raise on equal tensors that are different objects.
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
    fix_examples = (
        FixExample(
            before="""
import torch


def scaled(xs, references):
    if not all(torch.equal(x, r) for x, r in zip(xs, references)):
        raise ValueError("inputs differ from the references")
    return [x * 2 for x in xs]


compiled = torch.compile(scaled)
""",
            after="""
import torch


def scaled(xs, references):
    if not torch.compiler.is_compiling():
        if not all(torch.equal(x, r) for x, r in zip(xs, references)):
            raise ValueError("inputs differ from the references")
    return [x * 2 for x in xs]


compiled = torch.compile(scaled)
""",
            probe="(scaled, ([torch.ones(3)], [torch.ones(3)]))",
        ),
        FixExample(
            before="""
import torch


def covariance(x1, x2):
    same = torch.equal(x1, x2)
    products = x1 @ x2.T
    if same:
        products = (products + products.T) / 2
    return products


compiled = torch.compile(covariance)
""",
            after="""
import torch


def covariance(x1, x2):
    same = (x1 is x2 if torch.compiler.is_compiling() else torch.equal(x1, x2))
    products = x1 @ x2.T
    if same:
        products = (products + products.T) / 2
    return products


compiled = torch.compile(covariance)
""",
            probe="(covariance, ((x := torch.randn(4, 3)), x))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "same-object": _same_object,
        "same-object-method": _same_object_method,
    }

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._short_circuited: set[int] = set()  # ids of nodes `and`/`or` may not evaluate
        self._tested: list[ast.If] = []  # the `if`s whose test is being read, innermost last
        self._parents: dict[int, ast.AST] | None = None  # the function's nodes, by child id

    def visit_If_test(self, node: ast.If) -> None:
        self._tested.append(node)

    def leave_If_test(self, node: ast.If) -> None:
        self._tested.pop()

    def _fix(self) -> Fix | None:
        """The guard of the `if` whose test holds the comparison, where its body only tells
        or raises and the test does nothing else (see `fix_safety`)."""
        if not self._tested:
            return None
        node = self._tested[-1]
        context = self.context
        line = context.source.lines[node.lineno - 1].lstrip()
        if node.orelse or not line.startswith("if") or not owns_its_lines(context, node):
            return None
        if not self._only_notices_or_raises(node.body) or not self._pure(node.test):
            return None
        message = "check only when not compiling: `if not {torch}.compiler.is_compiling():`"
        return offer(context, node, message, "guard", self.fix_applicability, needs_torch=True)

    def _identity_fix(self, node: ast.Call, operands: list[ast.expr], rewrite: str) -> Fix | None:
        """The `same-object` fix of a comparison of two names (or attributes of names) whose
        answer only picks a way through the code: the test of an `if` whose branches raise
        nothing, of a conditional expression, or a name bound to it that only such tests and
        calls' arguments read. Not a check that must hold: compiled code would then raise for
        equal tensors that are different objects."""
        if len(operands) != 2 or not all(_reference(operand) for operand in operands):
            return None
        parents = self._function_parents()
        answer, parent = _answer(node, parents)
        if isinstance(parent, ast.Assign):
            if len(parent.targets) != 1 or not isinstance(parent.targets[0], ast.Name):
                return None
            name = parent.targets[0].id
            loads = [
                n
                for n in ast.walk(self.context.definition)
                if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            ]
            if not loads or not all(_chooses(*_answer(load, parents)) for load in loads):
                return None
        elif not _chooses(answer, parent):
            return None
        return offer(
            self.context, node, SAME_OBJECT, rewrite, self.fix_applicability, needs_torch=True
        )

    def _function_parents(self) -> dict[int, ast.AST]:
        if self._parents is None:
            self._parents = {
                id(child): parent
                for parent in ast.walk(self.context.definition)
                for child in ast.iter_child_nodes(parent)
            }
        return self._parents

    def _only_notices_or_raises(self, body: list[ast.stmt]) -> bool:
        exits = (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Await)
        if any(isinstance(n, exits) for statement in body for n in ast.walk(statement)):
            return False
        return isinstance(body[-1], ast.Raise) or only_notices(self.context, body)

    def _pure(self, test: ast.expr) -> bool:
        facts = self.context.facts
        for node in ast.walk(test):
            if isinstance(node, ast.NamedExpr):
                return False
            if not isinstance(node, ast.Call):
                continue
            name = facts.resolve(node.func)
            if name in FUNCTIONS or (name in PURE_CALLS and name not in facts.names):
                continue
            call = facts.tensor_method(node)
            if call is None or call[1].endswith("_") or call[1] in EFFECT_METHODS:
                return False
        return True

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        # `interpolating or torch.equal(a, b)`: only the first operand surely runs.
        for operand in node.values[1:]:
            self._short_circuited.update(id(inner) for inner in iter_nodes(operand))

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        maybe = id(node) in self._short_circuited
        if name in FUNCTIONS:
            kinds = [facts.kind(argument) for argument in node.args[:2]]
            fix = self._fix() or self._identity_fix(node, node.args, "same-object")
            if any(kind.is_tensor for kind in kinds):
                severity = Severity.WARNING if maybe else None
                message = self.message.format(call=f"{name}()")
                self.report(node, message, severity=severity, fix=fix)
            elif len(kinds) == 2 and Kind.PYTHON not in kinds:
                # The function takes tensors only: arguments of unknown kind are tensors in
                # every run that gets past it, or objects that stand in for them.
                message = self.message.format(call=f"{name}()")
                self.report(node, message, severity=Severity.WARNING, fix=fix)
            return
        call = facts.tensor_method(node)
        if call is None or call[1] not in METHODS or not node.args:
            return
        receiver, method = call
        if facts.kind(receiver).is_tensor:
            # A receiver taken for a tensor only because it is a root parameter: a maybe.
            maybe = maybe or facts.rests_on_guess(receiver)
            severity = Severity.WARNING if maybe else None
            message = self.message.format(call=f".{method}()")
            operands = [receiver, *node.args]
            fix = self._fix() or self._identity_fix(node, operands, "same-object-method")
            self.report(node, message, severity=severity, fix=fix)


def _reference(node: ast.expr) -> bool:
    """A name or an attribute of one (`x1`, `self.grid`): an object that `is` can compare."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _answer(node: ast.expr, parents: dict[int, ast.AST]) -> tuple[ast.AST, ast.AST | None]:
    """How far a truth value travels unchanged as a truth (through `not`, `and`, `or`), and
    the node that takes it there."""
    parent = parents.get(id(node))
    while isinstance(parent, ast.BoolOp) or (
        isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
    ):
        node, parent = parent, parents.get(id(parent))
    return node, parent


def _chooses(answer: ast.AST, parent: ast.AST | None) -> bool:
    """Whether `answer` only picks a way: the test of a conditional expression, the test of
    an `if` whose branches raise nothing, or an argument of a call (a flag the callee takes)."""
    if isinstance(parent, ast.IfExp):
        return parent.test is answer
    if isinstance(parent, ast.If):
        return parent.test is answer and not any(
            isinstance(n, ast.Raise | ast.Assert) for n in ast.walk(parent)
        )
    if isinstance(parent, ast.Call):
        return answer in parent.args
    return isinstance(parent, ast.keyword)
