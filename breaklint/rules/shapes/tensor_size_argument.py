import ast
from dataclasses import dataclass

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.rule import Rule, RuleContext
from breaklint.syntax import dotted, method_call
from breaklint.tensorness import FunctionFacts


@dataclass(frozen=True, slots=True)
class NumberArguments:
    """Where a call takes Python numbers (sizes, counts, bounds): the aten schema types them
    `SymInt`, `SymInt[]` or `Scalar`, with no overload that takes a tensor there."""

    first: int  # the first positional argument that is a number...
    last: int | None  # ...and the last (None: every one after it, as in `zeros(*size)`)
    keywords: frozenset[str]

    def positions(self, call: ast.Call, offset: int) -> list[ast.expr]:
        """The arguments of `call` in number positions (`offset` skips an explicit `self`)."""
        first, last = self.first + offset, None if self.last is None else self.last + offset
        chosen = call.args[first : None if last is None else last + 1]
        chosen += [k.value for k in call.keywords if k.arg in self.keywords]
        return chosen


def _numbers(first: int, last: int | None, *keywords: str) -> NumberArguments:
    return NumberArguments(first, last, frozenset(keywords))


# Factory functions and `range`: every argument is a number.
FUNCTIONS = {
    "torch.zeros": _numbers(0, None, "size"),
    "torch.ones": _numbers(0, None, "size"),
    "torch.empty": _numbers(0, None, "size"),
    "torch.rand": _numbers(0, None, "size"),
    "torch.randn": _numbers(0, None, "size"),
    "torch.full": _numbers(0, 0, "size"),
    "torch.arange": _numbers(0, None, "start", "end", "step"),
    "torch.randint": _numbers(0, None, "low", "high", "size"),
    "torch.randperm": _numbers(0, 0, "n"),
    "torch.eye": _numbers(0, 1, "n", "m"),
    "torch.linspace": _numbers(2, 2, "steps"),
    "torch.logspace": _numbers(2, 2, "steps"),
    "torch.nn.functional.one_hot": _numbers(1, 1, "num_classes"),
    "torch.nn.functional.pad": _numbers(1, 1, "pad"),
    "range": _numbers(0, None),
}
# Tensor methods (and their `torch.` functions, which take the tensor first).
METHODS = {
    "view": _numbers(0, None, "size"),
    "reshape": _numbers(0, None, "shape"),
    "expand": _numbers(0, None, "size"),
    "repeat": _numbers(0, None, "repeats"),
    "tile": _numbers(0, None, "dims"),
    "new_zeros": _numbers(0, None, "size"),
    "new_ones": _numbers(0, None, "size"),
    "new_empty": _numbers(0, None, "size"),
    "new_full": _numbers(0, 0, "size"),
    "narrow": _numbers(2, 2, "length"),
    "split": _numbers(0, 0, "split_size", "split_size_or_sections"),
    "chunk": _numbers(0, 0, "chunks"),
    "topk": _numbers(0, 0, "k"),
    "roll": _numbers(0, 0, "shifts"),
    "unflatten": _numbers(1, 1, "sizes"),
}


# Tensor methods that, called with no argument, reduce a tensor to a 0-dim one.
FULL_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "argmax", "argmin", "prod", "amax", "amin", "median"}
)


class TensorSizeArgument(Rule):
    code = "BL304"
    name = "tensor-size-argument"
    severity = Severity.ERROR
    message = (
        "`{argument}` is a tensor where {call} needs a Python number (a size, a count, a "
        "bound); Dynamo must read its value, a data-dependent operator, and breaks the graph "
        "here"
    )
    hint = (
        "compute sizes from shapes (`x.shape[0]`) or Python values, or keep the tensor and "
        "mask instead (`torch.arange(n_max) < lengths[:, None]`)"
    )
    index_message = (
        "`{argument}` is a 0-dim tensor used as an index, where indexing needs a Python int; "
        "Dynamo must read its value, a data-dependent operator, and breaks the graph here"
    )
    maybe_index_message = (
        "`{argument}` is an element of a row of a tensor used as an index: if it has no "
        "dimension left (a 0-dim tensor), Dynamo must read its value and breaks the graph "
        "here (a tensor of indices with a dimension is fine)"
    )
    index_hint = (
        "index with a tensor of indices that keeps a dimension (`x[:, idx[i : i + 1]]`, "
        "`torch.index_select`), or loop over Python ints"
    )
    fix_safety = """
No automatic fix: a size, count or bound must be a Python number, and this one is a tensor's
value, so the shape of what follows depends on the data; computing it from shapes, or keeping a
mask instead, changes the code around it in ways that depend on what it computes.
"""
    what = """
Flags a tensor passed where a torch function or tensor method needs a Python number: a size
(`torch.zeros((b, n, d))`, `x.view(b, n)`, `x.new_zeros(n)`), a bound or step
(`torch.arange(lengths.max())`, `range(t)`), a count (`x.chunk(n)`, `x.topk(k)`,
`F.one_hot(t, num_classes=n)`), a slice bound (`x[:n]`, `x[:, :n]`, `x[i, : n[i]]`, where `n` is a
tensor or an element of one), and a 0-dim tensor as an integer index: an error for a full
reduction (`x[:, scores.argmax()]`), a warning for an element of a loop variable that iterates
over a tensor (`for pair in pairs: out[pair[0], pair[1]] = v`), which is a 0-dim tensor when
the tensor has two dimensions and a tensor of indices otherwise. Other elements of tensors
(`x[:, idx[i]]`) are not flagged: a tuple or list of index tensors reads the same.

A parameter of the compiled function that no tensor operation has touched is not taken for a
tensor here: as a size it is almost always a Python int passed in.
"""
    why = """
Sizes, counts and bounds are Python integers in the graph. Given a tensor, Dynamo has to read
its value (`aten._local_scalar_dense`, the operator behind `.item()`), which fake tensors do
not have: it breaks the graph ("Data dependent operator"; a `range` over a tensor fails as a
builtin it cannot trace) and the rest of the function compiles separately, often once per
value.
"""
    example = """
import torch


def pad_to_longest(x):
    lengths = (x > 0).sum(-1)
    return torch.zeros(x.shape[0], lengths.max())


compiled = torch.compile(pad_to_longest)
"""
    use_instead = """
import torch


def pad_to_longest(x):
    lengths = (x > 0).sum(-1)
    keep = torch.arange(x.shape[1]) < lengths[:, None]
    return torch.where(keep, x, 0)


compiled = torch.compile(pad_to_longest)
"""
    probe = "(pad_to_longest, (torch.randn(4, 6),))"

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # Loop variables over a tensor (`for pair in pairs:`): rows, whose elements are 0-dim
        # tensors when the tensor has two dimensions, as tensors of index pairs do.
        self._rows: set[str] = set()

    def visit_For(self, node: ast.For) -> None:
        kind = self.context.facts.kind(node.iter)
        if isinstance(node.target, ast.Name) and kind.is_tensor:
            self._rows.add(node.target.id)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        index = node.slice
        # `x[:n]`, and each slice of a multi-dimensional index: `x[:, :n]`, `x[i, : n[i]]`.
        slices = index.elts if isinstance(index, ast.Tuple) else [index]
        bounds = [
            bound
            for part in slices
            if isinstance(part, ast.Slice)
            for bound in (part.lower, part.upper, part.step)
            if bound is not None
        ]
        self._check(bounds, "slicing")
        for part in slices:
            if not isinstance(part, ast.Slice):
                self._check_index(part)

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        spec, offset = FUNCTIONS.get(name or ""), 0
        if spec is None and name is not None and name.startswith("torch."):
            spec, offset = METHODS.get(name.removeprefix("torch.")), 1
        if spec is None:
            call = facts.tensor_method(node)
            # The method's name first: most calls name no method that takes sizes.
            if call is None or (spec := METHODS.get(call[1])) is None:
                return
            if facts.kind(call[0]) is Kind.PYTHON or _is_module(call[0], facts):
                return
        if spec is None or (name == "range" and "range" in facts.names):
            return
        values = [value for a in spec.positions(node, offset) for value in _elements(a)]
        self._check(values, f"`{_call_name(node, name)}`")

    def _check(self, values: list[ast.expr], needs: str) -> None:
        """Report the first tensor among values that must be Python numbers."""
        facts = self.context.facts
        for value in values:
            # A parameter taken for a tensor only because it is one (`height`, `width`) is
            # far more often a Python int passed in as a size: not flagged.
            if facts.kind(value).is_tensor and not facts.rests_on_guess(value):
                message = self.message.format(argument=ast.unparse(value), call=needs)
                self.report(value, message)
                return

    def _check_index(self, part: ast.expr) -> None:
        """A 0-dim tensor as an integer index: Dynamo reads its value (GB0033)."""
        facts = self.context.facts
        if isinstance(part, ast.Call):
            call = facts.tensor_method(part)
            reduced = (
                call is not None
                and call[1] in FULL_REDUCTIONS
                and not part.args
                and not part.keywords
                and facts.kind(call[0]).is_tensor
                and not facts.rests_on_guess(call[0])
            )
            if reduced:
                self.report(part, self.index_message.format(argument=ast.unparse(part)))
            return
        element = (
            isinstance(part, ast.Subscript)
            and isinstance(part.value, ast.Name)
            and part.value.id in self._rows
            and not isinstance(part.slice, ast.Slice | ast.Tuple)
            and not facts.kind(part.slice).is_tensor
        )
        if element:
            message = self.maybe_index_message.format(argument=ast.unparse(part))
            self.report(part, message, hint=self.index_hint, severity=Severity.WARNING)


def _is_module(receiver: ast.expr, facts: FunctionFacts) -> bool:
    """`np.split(a, n)`: a module's function, not a tensor's method."""
    return (
        isinstance(receiver, ast.Name)
        and facts.alias_of(facts.imports.get(receiver.id, "")) == receiver.id
    )


def _elements(argument: ast.expr) -> list[ast.expr]:
    """The values of a size argument: a tuple or list literal is read element by element."""
    if isinstance(argument, ast.Tuple | ast.List):
        return [e for e in argument.elts if not isinstance(e, ast.Starred)]
    return [argument]


def _call_name(node: ast.Call, resolved: str | None) -> str:
    written = dotted(node.func)
    if written is not None:
        return written
    call = method_call(node)
    return f".{call[1]}" if call else (resolved or "call")
