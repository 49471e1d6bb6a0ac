"""Numbers that Dynamo traces as tensors, and the uses of them that break the graph.

Dynamo traces some calls Python answers with a number by keeping the number in the graph as a
0-d tensor: the `random` draws it supports (`random.uniform(0, 1)`) and every numpy call it
traces (`np.lcm(a, b)`). As a tensor operand (`x * r`) such a value costs nothing; where Python
needs the number itself (a branch, `int()`, a size, an index) Dynamo has to read the tensor and
breaks the graph, unless it folded the value at trace time (`float(np.sqrt(4))`). Which uses
break, for each kind of value, is measured on the installed torch (`knowledge.generate.uses`);
this module finds the values in a function and their uses.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import ClassVar

from breaklint.findings import Fix, Severity
from breaklint.kinds import Kind
from breaklint.knowledge.answers import knowledge
from breaklint.knowledge.tensor_facts import TENSOR_METHODS
from breaklint.rule import Rule, RuleContext
from breaklint.syntax import dotted

# Builtins that need the number itself; each name is also the use `knowledge.generate` measures.
CONVERSIONS = frozenset({"int", "float", "bool", "range", "str", "repr"})
USE_WORDS = {
    "test": "a branch on it",
    "int": "`int()`",
    "float": "`float()`",
    "bool": "`bool()`",
    "range": "`range()`",
    "arithmetic": "Python arithmetic on it",
    "tensor-operand": "a tensor operation on it",
    "index": "an index",
    "slice": "a slice bound",
    "size": "the integer argument of `{call}` (a size, a dimension, a count)",
    "str": "`str()`",
    "repr": "`repr()`",
    "format": "text formatted from it (an f-string, `%`, `str.format`)",
}
_ARITHMETIC = (ast.UAdd, ast.USub, ast.Invert)
# Builtins that pick an element of (or reduce) what they are given: of a traced array, a
# traced value too (`max(np.random.geometric(p, 4))`, measured on 2.13).
_REDUCTIONS = frozenset({"max", "min", "sum"})


@dataclass(frozen=True, slots=True)
class TracedValue:
    origin: str  # the call that made it: `random.uniform`, `numpy.lcm`
    kinds: frozenset[str]  # the kinds of value of `knowledge.generate.VALUES` it may be
    number: str | None = None  # "int" or "float" when known
    # Which of its kinds it is depends on what the source does not show (the length of a
    # sequence numpy reads: `np.prod([n])` is folded into a number, `np.prod([h, w])` is an
    # array): a use that breaks for some of its kinds only is a warning.
    either: bool = False


def python_number(node: ast.expr) -> str | None:
    """The type, "int" or "float", of an expression that is plainly a Python number (`3`,
    `len(x)`, `x.shape[0]`, `n / 2`); None when it cannot be told."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return type(node.value).__name__
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return python_number(node.operand)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            return "float"
        numbers = {python_number(node.left), python_number(node.right)}
        return "float" if "float" in numbers else "int" if numbers == {"int"} else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in ("int", "len"):
            return "int"
        return "float" if node.func.id == "float" else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
        # `x.shape[1]`; `x.shape[1:]` is a tuple
        element = not isinstance(node.slice, ast.Slice)
        return "int" if node.value.attr == "shape" and element else None
    if isinstance(node, ast.Attribute) and node.attr == "ndim":
        return "int"
    return None


def _text(node: ast.expr) -> bool:
    """Whether `node` is written text: a string literal or an f-string."""
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


class TracedValueUses(Rule):
    """Base of the rules whose calls make traced values: reports each use that breaks."""

    module: ClassVar[str]  # the module whose calls make the values: idle where not imported
    use_message: ClassVar[str]  # formatted with `subject` and `use`
    use_hint: ClassVar[str]

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        prefix = f"{self.module}."
        # Imported here, or an object of it made elsewhere (`rng = random.Random()`, imported).
        made = context.facts.held_objects.values()
        self.active = any(
            target == self.module or target.startswith(prefix)
            for target in [*context.imports.values(), *made]
        )
        self.values: dict[str, TracedValue] = {}  # local names bound to traced values
        self.bound: dict[str, ast.expr] = {}  # the expression each of `values` was bound to
        self._static_ifs: list[bool] = []  # enclosing `if`s on trace-time values
        self._tested: set[int] = set()  # ids of the `and`/`or` a branch's test has judged

    def value_of_call(self, node: ast.Call) -> TracedValue | None:
        """The traced value a call makes, if it makes one (and does not break itself)."""
        raise NotImplementedError

    def value(self, node: ast.expr) -> TracedValue | None:
        if isinstance(node, ast.Name):
            return self.values.get(node.id)
        if isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id in _REDUCTIONS
                and func.id not in self.context.facts.names
                and len(node.args) == 1
                and not node.keywords
            ):
                return self.value(node.args[0])  # `max(draws)`: an element, traced too
            return self.value_of_call(node)
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            return self.value(node.value)  # an element of a traced array is traced too
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, _ARITHMETIC):
            operand = self.value(node.operand)
            return operand if operand is not None and self._keeps(operand, "arithmetic") else None
        if isinstance(node, ast.BinOp):
            return self._arithmetic_result(node)
        if isinstance(node, ast.BoolOp):
            # `np.any(a) or np.any(b)` is one of its operands: traced when every one is.
            operands = [self.value(operand) for operand in node.values]
            if any(operand is None for operand in operands):
                return None
            first = operands[0]
            assert first is not None
            kinds = frozenset().union(*(o.kinds for o in operands if o is not None))
            return TracedValue(first.origin, kinds, first.number, first.either)
        return None

    def _arithmetic_result(self, node: ast.BinOp) -> TracedValue | None:
        """A traced value combined with Python numbers, when that arithmetic is traced."""
        left, right = self.value(node.left), self.value(node.right)
        if left is None and right is None:
            return None
        values = [v for v in (left, right) if v is not None]
        if any(not self._keeps(v, "arithmetic") for v in values):
            return None
        others = [o for o, v in ((node.left, left), (node.right, right)) if v is None]
        if any(self.context.facts.kind(other).is_tensor for other in others):
            return None  # a tensor now: the tensor rules take over
        numbers = {v.number for v in values} | {python_number(o) for o in others}
        number = (
            "float"
            if isinstance(node.op, ast.Div) or "float" in numbers
            else "int"
            if numbers == {"int"}
            else None
        )
        kinds = frozenset().union(*(v.kinds for v in values))
        either = any(v.either for v in values)
        return TracedValue(values[0].origin, kinds, number, either)

    @staticmethod
    def _keeps(value: TracedValue, use: str) -> bool:
        """Whether Dynamo traces `use` for every kind `value` may be."""
        uses = knowledge().uses
        return all(uses.get(kind, {}).get(use, True) for kind in value.kinds)

    def _use(
        self,
        node: ast.expr,
        where: ast.AST,
        use: str,
        call: str = "",
        severity: Severity | None = None,
    ) -> bool:
        """Report `where` when `node` is a traced value whose `use` breaks for every kind it
        may be (a warning where it breaks for some, and the source cannot tell which kind it
        is); True when `node` is a traced value at all."""
        value = self.value(node)
        if value is None:
            return False
        uses = knowledge().uses
        breaks = [uses.get(kind, {}).get(use) is False for kind in value.kinds]
        partly = value.either and any(breaks) and not all(breaks)
        if all(breaks) or partly:
            subject = f"the result of `{value.origin}()`"
            if isinstance(node, ast.Name):
                subject = f"`{node.id}`, {subject},"
            words = USE_WORDS[use].format(call=call)
            message = self.use_message.format(subject=subject, use=words)
            fix = self.use_fix(node)
            severity = Severity.WARNING if partly else severity
            self.report(where, message, hint=self.use_hint, severity=severity, fix=fix)
        return True

    def use_fix(self, node: ast.expr) -> Fix | None:
        """The fix of a use that breaks, made where the value `node` reads is computed."""
        return None

    # Uses.
    def visit_Call(self, node: ast.Call) -> None:
        if not self.active:
            return
        func = node.func
        if isinstance(func, ast.Name) and func.id in CONVERSIONS:
            if func.id not in self.context.facts.names:
                for argument in node.args:
                    self._use(argument, node, func.id)
            return
        if isinstance(func, ast.Attribute) and func.attr == "format" and _text(func.value):
            # `"{}".format(v)`: text made of the value, as an f-string makes it
            self._text_uses(node, [*node.args, *(k.value for k in node.keywords)])
            return
        self._integer_arguments(node)

    def _text_uses(self, node: ast.expr, values: list[ast.expr]) -> None:
        """Report the first traced value formatted into text: the string Dynamo makes of it
        fails where it is used (`len()`, `+`, a module dict's key; a plain dict's `.get()`
        traces), so a warning."""
        for value in values:
            if self._use(value, node, "format", severity=Severity.WARNING):
                return

    def _integer_arguments(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        offset = 0
        if name is not None and name.count(".") == 1 and name.startswith("torch."):
            parameters = knowledge().integer_parameters(name.removeprefix("torch."))
            if parameters is None or not parameters.function:
                return
        elif isinstance(node.func, ast.Attribute) and not facts.reaches_project(node):
            receiver = facts.kind(node.func.value)
            method = node.func.attr
            written = dotted(node.func.value)
            module = written is not None and self._imported(written.partition(".")[0])
            tensor_method = receiver is Kind.UNKNOWN and method in TENSOR_METHODS and not module
            if not (receiver.is_tensor or tensor_method):
                return
            parameters = knowledge().integer_parameters(method)
            if parameters is None or not parameters.method:
                return
            offset, name = 1, f".{method}()"
        else:
            return
        sequences = (ast.Tuple, ast.List)
        one_by_one = parameters.varargs and not (
            node.args and isinstance(node.args[0], (*sequences, ast.Starred))
        )
        arguments = [
            argument
            for position, argument in enumerate(node.args, start=offset)
            if one_by_one or position in parameters.positions
        ]
        arguments += [k.value for k in node.keywords if k.arg in parameters.keywords]
        for argument in arguments:
            for item in argument.elts if isinstance(argument, sequences) else [argument]:
                self._use(item, node, "size", name)

    def _imported(self, name: str) -> bool:
        """Whether `name` is an imported module or object, not a local (`np` in `np.sum`)."""
        return name in self.context.imports and name not in self.context.facts.names

    def visit_If(self, node: ast.If) -> None:
        if not self.active:
            return
        # The test runs before the branch: only the `if`s around this one make it conditional
        # (the facts already count this one).
        self._test(node.test, guarded=any(self._static_ifs))
        self._static_ifs.append(not self.context.facts.reads_tensor_value(node.test))

    def leave_If(self, node: ast.If) -> None:
        if self.active:
            self._static_ifs.pop()

    def visit_While(self, node: ast.While | ast.IfExp) -> None:
        if self.active:
            self._test(node.test, guarded=self.context.facts.conditional)

    visit_IfExp = visit_While

    def visit_comprehension(self, node: ast.comprehension) -> None:
        if self.active:
            for test in node.ifs:
                self._test(test, guarded=self.context.facts.conditional)
            self._unbind(node.target)

    def _test(self, test: ast.expr, guarded: bool) -> None:
        """Report the traced values whose truth a branch reads; `guarded`: the test runs only
        in some configurations (a warning, not an error)."""
        if isinstance(test, ast.BoolOp):
            self._tested.add(id(test))
            for position, value in enumerate(test.values):
                # Python reads the later operands only when the earlier ones let it.
                self._test(value, guarded or position > 0)
        elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            self._test(test.operand, guarded)
        else:
            severity = Severity.WARNING if guarded else Severity.ERROR
            operands = [test.left, *test.comparators] if isinstance(test, ast.Compare) else [test]
            for operand in operands:
                if self._use(operand, test, "test", severity=severity):
                    break

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        """`np.any(a) or np.any(b)` as a value: Python reads the truth of every operand but
        the last, which it hands on as it is (its truth read where the value is tested)."""
        if not self.active or id(node) in self._tested:
            return
        self._tested.add(id(node))
        guarded = any(self._static_ifs)
        for position, value in enumerate(node.values[:-1]):
            self._test(value, guarded or position > 0)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if not self.active:
            return
        if isinstance(node.op, ast.Mod) and _text(node.left):  # `"%d" % v`, `"%s-%s" % (a, b)`
            right = node.right
            self._text_uses(node, right.elts if isinstance(right, ast.Tuple) else [right])
            return
        self._operation(node, node.left, node.right)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if self.active:
            self._operation(node, node.target, node.value)

    def _operation(self, node: ast.AST, left: ast.expr, right: ast.expr) -> None:
        for operand, other in ((left, right), (right, left)):
            if self.value(operand) is None:
                continue
            if self.value(other) is not None:
                use = "arithmetic"
            else:
                kind = self.context.facts.kind(other)
                if kind.is_tensor:
                    use = "tensor-operand"
                elif kind is Kind.PYTHON or python_number(other) is not None:
                    use = "arithmetic"
                else:
                    continue  # a tensor or a number: cannot tell
            self._use(operand, node, use)
            return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        if self.active:
            parts = [part.value for part in node.values if isinstance(part, ast.FormattedValue)]
            self._text_uses(node, parts)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if self.active and isinstance(node.op, _ARITHMETIC):
            self._use(node.operand, node, "arithmetic")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if not self.active:
            return
        index = node.slice
        for item in index.elts if isinstance(index, ast.Tuple) else [index]:
            if isinstance(item, ast.Slice):
                for bound in (item.lower, item.upper, item.step):
                    if bound is not None:
                        self._use(bound, node, "slice")
            else:
                self._use(item, node, "index")

    # Names bound to traced values.
    def leave_Assign(self, node: ast.Assign) -> None:
        if self.active:
            for target in node.targets:
                self._bind(target, node.value)

    def leave_AnnAssign(self, node: ast.AnnAssign) -> None:
        if self.active and node.value is not None:
            self._bind(node.target, node.value)

    def leave_NamedExpr(self, node: ast.NamedExpr) -> None:
        if self.active:
            self._bind(node.target, node.value)

    def leave_AugAssign(self, node: ast.AugAssign) -> None:
        if self.active:
            self._unbind(node.target)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        if self.active:
            self._unbind(node.target)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        if self.active and node.optional_vars is not None:
            self._unbind(node.optional_vars)

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        traced = self.value(value) if isinstance(target, ast.Name) else None
        if isinstance(target, ast.Name) and traced is not None:
            self.values[target.id] = traced
            self.bound[target.id] = value
        else:
            self._unbind(target)

    def _unbind(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.values.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._unbind(element)
        elif isinstance(target, ast.Starred):
            self._unbind(target.value)
