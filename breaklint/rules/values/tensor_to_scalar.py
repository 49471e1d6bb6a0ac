from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import NumberUses, NumberUsesHooks, offer, tensor_operands
from breaklint.kinds import Kind
from breaklint.knowledge.curated import MATH_OF_NUMBERS
from breaklint.rule import FixExample, Rule, RuleContext
from breaklint.rules.control_flow.data_dependent_branch import (
    NUMBER_TEST_REWRITES,
    NumberTestHooks,
    number_test_checks,
)
from breaklint.syntax import excerpt, iter_nodes

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

CONVERSIONS = frozenset({"float", "int", "bool", "complex"})
MATH_MESSAGE = (
    "`{call}()` of a tensor reads its value as a Python number; Dynamo traces without values, "
    "so it breaks the graph here"
)
# The tensor method that converts as the builtin does (`int()` truncates, as `.long()` does).
TENSOR_CONVERSIONS = {"float": "float", "int": "long"}


def _keep_tensor(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `keep-tensor` fix: `int(x)` becomes `x.detach().long()`."""
    import libcst as cst

    from breaklint.rewrites import method

    if not isinstance(node, cst.Call):
        return None
    if not isinstance(node.func, cst.Name) or len(node.args) != 1:
        return None
    conversion = TENSOR_CONVERSIONS.get(node.func.value)
    if conversion is None:
        return None
    value = node.args[0].value
    return method(method(value, "detach"), conversion).with_changes(lpar=node.lpar, rpar=node.rpar)


def _range_last(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `range-last` fix: in the block of `node` (a loop, a `with` or a function), after
    `t = torch.arange(start, end)`, each `int(t[-1])` of a later line, until `t` is bound
    again, becomes `int(start + len(t) - 1)`."""
    import libcst as cst

    body = getattr(node, "body", None)
    if not isinstance(body, cst.IndentedBlock):
        return None
    starts: dict[str, cst.BaseExpression] = {}  # names bound to a range: its start

    class LastOfRange(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            name = _last_of(updated)
            if name is None or name not in starts:
                return updated
            length = cst.Call(cst.Name("len"), [cst.Arg(cst.Name(name))])
            up_to = cst.BinaryOperation(starts[name], cst.Add(), length)
            last = cst.BinaryOperation(up_to, cst.Subtract(), cst.Integer("1"))
            return updated.with_changes(args=[cst.Arg(last)])

    statements: list[Any] = []
    for original in body.body:
        statement: Any = original
        if isinstance(statement, cst.SimpleStatementLine) and starts:
            statement = statement.visit(LastOfRange())
        for name in _stored_names(statement):
            starts.pop(name, None)
        start = _range_start(statement, fix.torch)
        if start is not None:
            starts[start[0]] = start[1]
        statements.append(statement)
    changed: cst.CSTNode = node.with_changes(body=body.with_changes(body=statements))
    return changed


def _last_of(call: cst.Call) -> str | None:
    """`t` of `int(t[-1])`."""
    import libcst.matchers as m

    pattern = m.Call(
        func=m.Name("int"),
        args=[
            m.Arg(
                value=m.Subscript(
                    value=m.Name(),
                    slice=[
                        m.SubscriptElement(m.Index(m.UnaryOperation(m.Minus(), m.Integer("1"))))
                    ],
                ),
                keyword=None,
                star="",
            )
        ],
    )
    if not m.matches(call, pattern):
        return None
    read: Any = call.args[0].value  # `t[-1]`, as matched
    return str(read.value.value)


def _range_start(statement: cst.BaseStatement, torch: str) -> tuple[str, cst.BaseExpression] | None:
    """(t, start) of `t = torch.arange(start, end)` or `t = torch.arange(end)` (start 0)."""
    import libcst as cst
    import libcst.matchers as m

    pattern = m.SimpleStatementLine(
        body=[
            m.Assign(
                targets=[m.AssignTarget(target=m.Name())],
                value=m.Call(func=m.Attribute(value=m.Name(torch), attr=m.Name("arange"))),
            )
        ]
    )
    if not m.matches(statement, pattern):
        return None
    assign: Any = statement.body[0]  # type: ignore[attr-defined]
    arguments = assign.value.args
    if not 1 <= len(arguments) <= 2 or any(a.keyword or a.star for a in arguments):
        return None
    start = arguments[0].value if len(arguments) == 2 else cst.Integer("0")
    return assign.targets[0].target.value, start


def _stored_names(statement: cst.CSTNode) -> set[str]:
    """The names `statement` binds anywhere in it (assignments, loop targets)."""
    import libcst as cst
    import libcst.matchers as m

    targets = m.findall(
        statement,
        m.AssignTarget() | m.AugAssign() | m.AnnAssign() | m.For() | m.NamedExpr() | m.WithItem(),
    )
    names = set()
    for target in targets:
        bound = getattr(target, "target", None) or getattr(target, "asname", None)
        for name in m.findall(bound, m.Name()) if bound is not None else ():
            assert isinstance(name, cst.Name)
            names.add(name.value)
    return names


_CHUNKED = """
import torch


def chunked_sum(x, size: int):
    total = torch.zeros(x.shape[1:])
    pos = 0
    while pos < x.shape[0]:
        t = torch.arange(pos, min(x.shape[0], pos + size))
        pos = int(t[-1]) + 1
        total = total + x[t].sum(0)
    return total


compiled = torch.compile(chunked_sum)
"""


# A page example: a truth read for a conditional expression.
_GATED = """
import torch


def gated(x, gate):
    h = torch.tanh(x)
    gate = gate.to(x.dtype).mean()
    out = h if bool(gate) else x
    return out * 2


compiled = torch.compile(gated)
"""


class TensorToScalar(NumberTestHooks, NumberUsesHooks, Rule):
    code = "BL102"
    name = "tensor-to-scalar"
    words = CONVERSIONS | {"math"}  # `math.sqrt`, and `from math import sqrt`
    severity = Severity.ERROR
    message = (
        "`{func}(...)` of a tensor reads its value into a Python {func}; Dynamo traces "
        "without values, so it breaks the graph here"
    )
    hint = (
        "keep the value a tensor (tensor arithmetic, `torch.where`), or set "
        "torch._dynamo.config.capture_scalar_outputs = True"
    )
    what = """
Flags `float(t)`, `int(t)`, `bool(t)` and `complex(t)` on a tensor (a traced parameter, the
result of a `torch` function, a tensor method or arithmetic on tensors) in compiled code, and
the `math` functions of numbers given a tensor (`math.sqrt(t)`, `math.isnan(t)`), which read
it the same way (only a certain tensor: a value merely taken for one is, for `math`, more often
a number). An
`int(t.argmax())` used as a slice bound is reported with the extra cost it carries: the
output shape then depends on data. When the converted value is only a parameter of the
compiled function in arithmetic (`int(patch_height * self.patch_size)`), which may be a Python
number, the finding is a warning rather than an error.
"""
    why = """
Converting a tensor to a Python number needs its value, which fake tensors do not have at
trace time. Dynamo ends the graph before the conversion, runs it eagerly and starts a new
graph after it (GB0124; a `math` function: "Data dependent operator", GB0033). Used as an
index or slice bound, the number also makes the next graph's shapes depend on data.
"""
    example = """
import torch


def top_prefix(x):
    end = int(x.argmax())
    return x[:end] * 2


compiled = torch.compile(top_prefix)
"""
    use_instead = """
import torch


def top_prefix(x):
    keep = torch.arange(x.shape[0]) < x.argmax()
    return torch.where(keep, x * 2, torch.zeros_like(x))


compiled = torch.compile(top_prefix)
"""
    probe = "(top_prefix, (torch.randn(8),))"
    gb_ids = ("GB0124", "GB0033")
    fix_examples = (
        FixExample(
            before="""
import torch


def expect_probabilities(p, name):
    assert p, f"{name} must lie in [0, 1]"


class Mixture(torch.nn.Module):
    def forward(self, weights, x):
        expect_probabilities(name="weights", p=bool(((weights >= 0) & (weights <= 1)).all()))
        return (weights * x).sum(0)


compiled = torch.compile(Mixture())
""",
            after="""
import torch


def expect_probabilities(p, name):
    assert p, f"{name} must lie in [0, 1]"


class Mixture(torch.nn.Module):
    def forward(self, weights, x):
        if not torch.compiler.is_compiling():
            expect_probabilities(name="weights", p=bool(((weights >= 0) & (weights <= 1)).all()))
        return (weights * x).sum(0)


compiled = torch.compile(Mixture())
""",
            probe="(Mixture(), (torch.rand(3, 1), torch.randn(3, 4)))",
        ),
        FixExample(
            before="""
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        return x * float(x.mean()) + int(x.abs().max())  # scaled, shifted


compiled = torch.compile(Gate())
""",
            after="""
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        return x * x.mean().detach().float() + x.abs().max().detach().long()  # scaled, shifted


compiled = torch.compile(Gate())
""",
            probe="(Gate(), (torch.randn(8) * 4,))",
        ),
        FixExample(
            before="""
import torch


def standardize(x, w):
    spread = float(w.std())
    steps = int(w.abs().max())
    return (x - w.mean()) / spread + steps * x.sign()


compiled = torch.compile(standardize)
""",
            after="""
import torch


def standardize(x, w):
    spread = w.std().detach().float()
    steps = w.abs().max().detach().long()
    return (x - w.mean()) / spread + steps * x.sign()


compiled = torch.compile(standardize)
""",
            probe="(standardize, (torch.randn(8), torch.randn(5) * 3))",
            tolerance=1e-6,
        ),
        FixExample(
            before="""
import torch


def stable(x):
    y = x.exp()
    if float(y.max()) > 1e6:
        raise OverflowError(f"exp overflowed to {float(y.max())}")
    return y.log1p()


compiled = torch.compile(stable)
""",
            after="""
import torch


def stable(x):
    y = x.exp()
    if torch.compiler.is_compiling():
        torch._assert_async(torch.logical_not(y.max() > 1e6), "exp overflowed to {float(y.max())}")
    elif float(y.max()) > 1e6:
        raise OverflowError(f"exp overflowed to {float(y.max())}")
    return y.log1p()


compiled = torch.compile(stable)
""",
            probe="(stable, (torch.randn(8),))",
        ),
        FixExample(
            before=_CHUNKED,
            after=_CHUNKED.replace("int(t[-1])", "int(pos + len(t) - 1)"),
            probe="(chunked_sum, (torch.randn(10, 3), 4))",
        ),
        FixExample(
            before=_GATED,
            after=_GATED.replace(
                "out = h if bool(gate) else x", "out = torch.where(gate != 0, h, x)"
            ),
            probe="(gated, (torch.randn(8), torch.tensor(True)))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "keep-tensor": _keep_tensor,
        "range-last": _range_last,
        **NUMBER_TEST_REWRITES,
    }
    fix_safety = """
Unsafe fix: where the number is an operand of arithmetic or of a comparison with a tensor, or
computes a name whose every use in the function is such an operand, an ordering or equality
test against a number (not in the test of a loop or of an `if` that does more than assign), an
argument of a `print`, an argument that takes a 0-d tensor for a
number, an argument of `max`, `min` or `abs` whose result is one, or a name computed from it by
arithmetic whose uses all are (BL101's page lists the arguments), `float(t)` becomes
`t.detach().float()` and
`int(t)` becomes `t.detach().long()` (which truncates as `int()` does): the value stays a
tensor without gradient and the graph goes on. Eager results can differ when the other operand
is an integer tensor and the value a float (`float32` is used where Python would promote to the
default float dtype) and when `t` is a one-element tensor that is not 0-d (it broadcasts).
Where the number (`float(t)`, `int(t)`, `bool(t)`) is the test of an `if` that raises,
compared with numbers or names and joined by `not`, `and`, `or`, the `if` is kept for eager
runs after `if torch.compiler.is_compiling(): torch._assert_async(<not test on the tensors>,
"<msg as written>")`: compiled code checks in the graph and raises a `RuntimeError` with the message
unformatted (`int(t)` becomes `t.long()`, which truncates as `int()` does). Where the
number is a truth passed to a function whose answer nothing reads (`check(bool(t.all()),
msg)`: a statement of its own, calling a function by its name or from a module, not a method
of an object), the statement runs only `if not torch.compiler.is_compiling():`: eager runs
check as written, compiled runs skip the check.
Where `float(t)`, `int(t)` (`t.long()`) or `bool(t)` make the test of any other `if` (not an
`elif`) or conditional expression, compared with numbers or taken for their truth, joined by
`not`, `and`, `or` (`out = h if bool(gate) else x`), the test is made on the tensors (a read
taken for its truth becomes `t != 0`) and the branch gets the fix BL201 gives a branch on that
tensor test where it is a choice of values (`torch.where`: see BL101 and BL201), with their
caveats: both sides are computed, the names become tensors, a one-element tensor that is not
0-d broadcasts.
An `assert` whose test is made of such reads (`assert float(t) < 1e4, msg`) is kept for eager
runs after `if torch.compiler.is_compiling(): torch._assert_async(<test on the tensors>,
"<msg as written>")`: compiled code raises a `RuntimeError`, not an `AssertionError`.
`int(t[-1])` where `t = torch.arange(start, end)` of Python numbers is `t`'s last binding,
earlier in the same block of a loop, a `with` or the function, becomes `int(start + len(t) -
1)`: the range's last value, known without reading the tensor (exactly for integer bounds;
computed in Python's float for float bounds, where the tensor holds `float32`; an empty range,
where `t[-1]` raised, now gives `start - 1`). `complex()` and other uses have no automatic
fix.
"""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._in_tensor_arithmetic: set[int] = set()  # calls whose number a tensor can be
        self._index_depth = 0
        self.numbers = NumberUses(context)
        self.checks = number_test_checks(context, self.fix_applicability)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        operands = tensor_operands(self.context, node)
        self._in_tensor_arithmetic.update(map(id, operands))
        self.numbers.visit_operation(node)

    visit_Compare = visit_BinOp

    def visit_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth += 1

    def leave_Subscript_slice(self, node: ast.Subscript) -> None:
        self._index_depth -= 1

    def visit_Call(self, node: ast.Call) -> None:
        self.numbers.visit_Call(node)
        self.checks.visit_Call(node)
        func = node.func
        name = self.context.facts.resolve(func) or ""
        module, _, function = name.partition(".")
        if module == "math" and function in MATH_OF_NUMBERS:
            self._math_call(node, name)
            return
        if not (
            isinstance(func, ast.Name)
            and func.id in CONVERSIONS
            and len(node.args) == 1
            and not node.keywords
        ):
            return
        facts = self.context.facts
        if func.id in facts.names or not facts.kind(node.args[0]).is_tensor:
            return
        message = self.message.format(func=func.id)
        if self._index_depth:
            message += "; used as an index or slice bound it also makes the shape data-dependent"
        # `float(x)` of a parameter taken for a tensor: a warning. Arithmetic on such a
        # parameter converted back, `int(patch_height * self.patch_size)`, is how Python sizes
        # are computed, not tensors: not flagged.
        guess = facts.rests_on_guess(node.args[0])
        if guess and isinstance(node.args[0], ast.BinOp):
            return
        severity = Severity.WARNING if guess else None
        convertible = func.id in TENSOR_CONVERSIONS
        range_last = self._range_last_fix(node)
        if id(node) in self.checks.fixes:
            self.report(node, message, severity=severity, fix=self.checks.fixes[id(node)])
        elif range_last is not None:
            self.report(node, message, severity=severity, fix=range_last)
        elif convertible and (
            id(node) in self._in_tensor_arithmetic or self.numbers.takes_tensor(node)
        ):
            self.report(node, message, severity=severity, fix=self._fix(node))
        elif not (convertible and self.numbers.bind(node, severity)):
            self.report(node, message, severity=severity, hint=self._hint(node))

    def _math_call(self, node: ast.Call, name: str) -> None:
        """`math.sqrt(t)`: the function reads the tensor's value as `float(t)` does. Only a
        certain tensor: `math` is for numbers, so a value only taken for a tensor (a torch
        helper's result, a parameter) is far more often one."""
        facts = self.context.facts
        if not any(facts.kind(a).is_tensor and not facts.rests_on_guess(a) for a in node.args):
            return
        torch_name = name.replace("math.", "torch.", 1)
        self.report(
            node,
            MATH_MESSAGE.format(call=name),
            hint=f"keep a tensor: the torch function (`{torch_name}`) or tensor arithmetic",
        )

    def _range_last_fix(self, node: ast.Call) -> Fix | None:
        """The `range-last` fix of `int(t[-1])` where, earlier in the same block (of a loop, a
        `with` or the function), `t = torch.arange(...)` of Python numbers is `t`'s last
        binding: the last value of the range is `start + len(t) - 1`, known without reading."""
        argument, function = node.args[0], self.context.definition
        if node.func.id != "int":  # type: ignore[attr-defined]
            return None
        if not (isinstance(argument, ast.Subscript) and isinstance(argument.value, ast.Name)):
            return None
        last = argument.slice
        minus_one = (
            isinstance(last, ast.UnaryOp)
            and isinstance(last.op, ast.USub)
            and isinstance(last.operand, ast.Constant)
            and type(last.operand.value) is int
            and last.operand.value == 1
        )
        found = _block_of(function, node)
        if not minus_one or found is None:
            return None
        owner, statements, index = found
        name = argument.value.id
        binding = next((s for s in reversed(statements[:index]) if _stores(s, name)), None)
        if not isinstance(binding, ast.Assign) or len(binding.targets) != 1:
            return None
        value = binding.value
        facts = self.context.facts
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
            return None
        written = value.func.value
        plain = (
            isinstance(binding.targets[0], ast.Name)
            and isinstance(written, ast.Name)
            and facts.resolve(value.func) == "torch.arange"
            and not value.keywords
            and 1 <= len(value.args) <= 2
        )
        if not plain or any(facts.kind(a) is not Kind.PYTHON for a in value.args):
            return None
        message = "the last value of the range, without reading it: `int(start + len(t) - 1)`"
        fix = offer(
            self.context, owner, message, "range-last", self.fix_applicability, needs_torch=True
        )
        assert isinstance(written, ast.Name)
        return (
            fix
            if fix is not None and fix.torch == written.id and not fix.adds_torch_import
            else None
        )

    def _fix(self, node: ast.Call) -> Fix | None:
        conversion = TENSOR_CONVERSIONS[node.func.id]  # type: ignore[attr-defined]
        message = f"keep the value a tensor: `.detach().{conversion}()`"
        return offer(self.context, node, message, "keep-tensor", self.fix_applicability)

    def _hint(self, node: ast.Call) -> str:
        return (
            f"use `{excerpt(node.args[0])}` itself where `{excerpt(node)}` is used: tensor "
            "arithmetic and `torch.where` take the tensor; or set "
            "torch._dynamo.config.capture_scalar_outputs = True"
        )

    def _message(self, node: ast.Call) -> str:
        return self.message.format(func=node.func.id)  # type: ignore[attr-defined]


# Statements whose block the `range-last` fix rewrites: each owns one block, its `body`.
_BLOCK_OWNERS = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.FunctionDef)


def _block_of(function: ast.AST, node: ast.AST) -> tuple[ast.stmt, list[ast.stmt], int] | None:
    """(owner, its body, index) of the simple statement holding `node`, where the statement
    is in the `body` of a loop (not its `else`), a `with` or the function itself."""
    for owner in ast.walk(function):
        if not isinstance(owner, _BLOCK_OWNERS) or (
            owner is not function and isinstance(owner, ast.FunctionDef)
        ):
            continue
        for index, statement in enumerate(owner.body):
            if isinstance(statement, _COMPOUND):
                continue
            if any(inner is node for inner in iter_nodes(statement)):
                return owner, owner.body, index
    return None


_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
)


def _stores(statement: ast.stmt, name: str) -> bool:
    """Whether `statement` binds `name` anywhere in it."""
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in ast.walk(statement)
    )
