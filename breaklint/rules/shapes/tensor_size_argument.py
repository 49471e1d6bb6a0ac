from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.kinds import Kind
from breaklint.knowledge.answers import LINKED_NUMBER_PARAMETERS, NUMBER_PARAMETERS
from breaklint.rule import FixExample, Outline, Rule, RuleContext, called
from breaklint.syntax import dotted, iter_nodes, method_call
from breaklint.tensorness import FunctionFacts

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


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
    # `slice(start, stop)` built apart from a subscript: its bounds are read as `x[start:stop]`'s
    "slice": _numbers(0, None),
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


def _given(call: ast.Call, parameter: str, position: int, offset: int) -> ast.expr | None:
    """The argument `call` gives for a parameter at `position` (-1: keyword only), `offset`
    counting the positions a method call's receiver takes."""
    for keyword in call.keywords:
        if keyword.arg == parameter:
            return keyword.value
    at = position - offset
    if (
        position < 0
        or at >= len(call.args)
        or any(isinstance(a, ast.Starred) for a in call.args[: at + 1])
    ):
        return None
    return call.args[at]


def _python_number(value: ast.expr) -> bool:
    """A number written in the code: `0`, `-1.5`."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub | ast.UAdd):
        value = value.operand
    return isinstance(value, ast.Constant) and type(value.value) in (int, float)


def _index_pairs(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """`torch.cartesian_prod(torch.arange(a), torch.arange(b))` as `[(i0, i1) for i0 in
    range(a) for i1 in range(b)]`."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    code = cst.Module([]).code_for_node
    names = [f"i{index}" for index in range(len(node.args))]
    ranges = []
    for name, argument in zip(names, node.args, strict=True):
        if not isinstance(argument.value, cst.Call):
            return None
        bounds = ", ".join(code(a.value) for a in argument.value.args)
        ranges.append(f"for {name} in range({bounds})")
    return cst.parse_expression(f"[({', '.join(names)}) {' '.join(ranges)}]")


def _kept_dimension(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `index-kept-dim` fix: a 0-dim tensor `i` among slices as an index, `x[:, i]`, read
    as `x[:, i.reshape(1)].squeeze(1)`; written to (`index-kept-dim-store`) as `x[:,
    i.reshape(1)]`, whose value broadcasts into the dimension of one."""
    import libcst as cst

    from breaklint.rewrites import parenthesized

    if not isinstance(node, cst.Subscript):
        return None
    at = [i for i, e in enumerate(node.slice) if not isinstance(e.slice, cst.Slice)]
    if len(at) != 1:
        return None
    element = node.slice[at[0]]
    index = element.slice
    assert isinstance(index, cst.Index)
    reshaped = cst.parse_expression(
        f"{cst.Module([]).code_for_node(parenthesized(index.value))}.reshape(1)"
    )
    elements = list(node.slice)
    elements[at[0]] = element.with_changes(slice=index.with_changes(value=reshaped))
    written = node.with_changes(slice=elements)
    if fix.rewrite.endswith("-store"):
        return written
    squeeze = cst.Attribute(written.with_changes(lpar=[], rpar=[]), cst.Name("squeeze"))
    squeezed = cst.Call(squeeze, [cst.Arg(cst.Integer(str(at[0])))])
    return squeezed.with_changes(lpar=node.lpar, rpar=node.rpar)


def _split_bounds(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `split-bounds` fix of a method call: `x.clamp(0, t)` as `x.clamp(min=0).clamp(max=t)`."""
    return _bounds_apart(node, 0)


def _split_bounds_of(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `split-bounds` fix of a torch function: `torch.clamp(x, 0, t)` as
    `torch.clamp(x, min=0).clamp(max=t)`."""
    return _bounds_apart(node, 1)


def _bounds_apart(node: cst.CSTNode, offset: int) -> Rewritten | None:
    """A `clamp` or `clip` call given both bounds, as a call given `min` alone and then the
    same method (`clamp_` keeps its update in place) given `max`: the order `clamp` applies
    them in (`min` first, so `max` wins where `min > max`)."""
    import libcst as cst

    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return None
    kept, bounds = list(node.args[:offset]), {}
    for position, argument in enumerate(node.args[offset:]):
        if argument.star or position > 1:
            return None
        keyword = argument.keyword.value if argument.keyword else ("min", "max")[position]
        if keyword not in ("min", "max") or keyword in bounds:
            return None
        bounds[keyword] = argument.value
    if len(kept) != offset or any(a.keyword or a.star for a in kept) or len(bounds) != 2:
        return None

    def given(keyword: str) -> cst.Arg:
        equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        return cst.Arg(bounds[keyword], keyword=cst.Name(keyword), equal=equal)

    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    first = node.with_changes(args=[*kept, given("min")], lpar=[], rpar=[])
    second = cst.Attribute(first, cst.Name(node.func.attr.value))
    return cst.Call(second, [given("max")], lpar=node.lpar, rpar=node.rpar)


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


# Tensor methods that, called with no argument, reduce a tensor to a 0-dim one.
FULL_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "argmax", "argmin", "prod", "amax", "amin", "median"}
)
# torch functions whose result has one dimension, whatever their arguments: a loop over it
# binds 0-dim tensors.
VECTOR_FUNCTIONS = frozenset({"torch.arange", "torch.randperm", "torch.linspace"})
# Tensor methods whose result has the shape of their tensor (given no dimension to reduce):
# applied to a tensor of one dimension, one dimension still.
SHAPE_KEEPING_METHODS = frozenset(
    {"cumsum", "cumprod", "clone", "detach", "long", "int", "float", "abs", "neg", "flip"}
)
# torch functions that make a tensor of the Python numbers passed (`torch.as_tensor(n)`), and
# those that keep such tensors so (`torch.min(torch.as_tensor(g), torch.as_tensor(n))`): Dynamo's
# fake tensor keeps their value, so a size read from one is a number it knows (measured on 2.13;
# `int(t)`, `.item()` and a slice bound still break).
NUMBER_TENSOR_FUNCTIONS = frozenset({"torch.tensor", "torch.as_tensor"})
NUMBER_TENSOR_COMBINERS = frozenset({"torch.min", "torch.max", "torch.minimum", "torch.maximum"})


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
    zero_dim_store_message = (
        "`{target}` is a 0-dim tensor: a store through a mask (`{written} = ...`) must read "
        "the mask's one value, a data-dependent operator, and Dynamo breaks the graph here"
    )
    zero_dim_store_hint = "select instead: `s = torch.where(mask, value, s)`"
    index_hint = (
        "index with a tensor of indices that keeps a dimension (`x[:, idx[i : i + 1]]`, "
        "`torch.index_select`), or loop over Python ints"
    )
    fix_safety = """
Unsafe fix: where a loop iterates over the rows of `torch.cartesian_prod(torch.arange(a),
torch.arange(b), ...)` (written in the `for` or bound once to a name the `for` alone reads),
the bounds are Python numbers and every use of the loop variable is an element of a row
(`pair[0]`) used as an index, the product becomes `[(i0, i1) for i0 in range(a) for i1 in
range(b)]`: the same index pairs in the same order, as Python ints, which index exactly as
the 0-dim tensors did. An `arange` of a float bound would make `range` raise. A `clamp` or
`clip` (or `clamp_`, `clip_`) given both bounds, one a number and the other a tensor
(`torch.clamp(x, 0, t)`, `x.clip(min=t, max=1.0)`), gives them one at a time, `min` first as
`clamp` applies them: `torch.clamp(x, min=0).clamp(max=t)` (an in-place `clamp_` stays in
place: `x.clamp_(min=0).clamp_(max=t)`). A tensor bound alone compiles (measured on 2.13). For
a floating `x` the result is the same, values and dtype, `max` winning where `min > max` as in
`clamp` (measured on 2.13 over the dtypes of `x`, bound and number). For an integer or bool
`x` and a floating 0-dim bound of a dtype other than the default, the dtype differs: `clamp`
read the bound as a number (the default float dtype), the split calls promote to the bound's
dtype (`float64`, `float16`), and a bool `x` given `True` as a bound now raises. A bound of
more than one element, which made `clamp` raise, now clamps element by element. A 0-dim tensor
flagged as an integer index (a full reduction, `top = scores.argmax()`, or an element of a tensor
of one dimension, `order[0]`), the only index besides slices, becomes a tensor of one index,
`i.reshape(1)`, which Dynamo traces (measured on 2.13: one graph, equal outputs): written to,
`x[i] = v` and `x[:, i] += v` become `x[i.reshape(1)] = v` (the value broadcasts into the
dimension of one); read, where the read is an operand of arithmetic or of a comparison or the
value stored into an element (`out[0] = x[i]`), `x[:, i]` becomes `x[:, i.reshape(1)].squeeze(1)`.
The read is a copy where it was a view: offered only where it is read once into a new value.
A 0-dim index that is not an integer (a bool) would have added a dimension, and now selects.
Elsewhere no fix
is offered: a size, count or bound must be a Python number, and this one is a tensor's value,
so the shape of what follows depends on the data; computing it from shapes, or keeping a mask
instead, changes the code around it in ways that depend on what it computes.
"""
    what = """
Flags a tensor passed where a torch function or tensor method needs a Python number: a size
(`torch.zeros((b, n, d))`, `x.view(b, n)`, `x.new_zeros(n)`), a bound or step
(`torch.arange(lengths.max())`, `range(t)`), a count (`x.chunk(n)`, `x.topk(k)`,
`F.one_hot(t, num_classes=n)`), a slice bound (`x[:n]`, `x[:, :n]`, `x[i, : n[i]]`, or a slice
object made apart, `rows = slice(indptr[i], indptr[i + 1])`, where `n` or `indptr` is a tensor or
an element of one), and a 0-dim tensor as an integer index: an error for a full
reduction (`x[:, scores.argmax()]`, or a local bound to one: `best = scores.argmax(); x[best]`)
and for what a loop over a tensor of one dimension binds (`rows, cols = torch.where(m)` then
`for a, p in zip(rows, cols): d[a, p]`, or `for i in torch.arange(n): x[i]`), a warning for
an element of a loop variable that iterates over a tensor (`for pair in pairs:
out[pair[0], pair[1]] = v`), which is a 0-dim tensor when the tensor has two dimensions and a
tensor of indices otherwise. An element at an index written in the code of a tensor known to
have one dimension is an error too (`order = torch.randperm(n); x[order[0]]`; `values, counts =
torch.unique(t, return_counts=True)` then `x[(counts.cumsum(0) - 1)[0]]`: the values and
counts of a `unique` without `dim`, and what keeps their shape, element by element arithmetic
with numbers, `cumsum`, `flip`...). Other elements of tensors (`x[:, idx[i]]`, `x[order[0]]`
where `order` is a parameter) are not flagged: a tuple or list of index tensors reads the
same, and an element of a tensor with two dimensions (`x[edge_index[0]]`) is a tensor of
indices. So is a store through a mask into a 0-dim tensor (`s = x.sum(); s[s == 0] = 1.0`):
the mask has no dimension either, and Dynamo reads its value (an augmented store, `s[m] *=
2`, is BL302's: it reads `s[m]` first). Neither capture knob removes these breaks.

It also flags a tensor given where torch reads a Python number, as measured for the installed
torch's operators (the knowledge's `number_parameters`): an `alpha` (`x.add(y, alpha=t)`), a
slope (`F.leaky_relu(x, t)`), a fill value (`torch.full_like(x, t)`), and a bound of `clamp` or
`clip` whose other bound is a number written in the code (`torch.clamp(x, 0, t)`: the number
picks the overload that takes numbers; with tensors or `None` for both it is fine).

A parameter of the compiled function that no tensor operation has touched is not taken for a
tensor here: as a size it is almost always a Python int passed in. A local that an `if` makes
a tensor on one way only (`if max_length is None: max_length = lengths.max()`, where callers
also pass ints) is a warning: it breaks where that way runs. A tensor made of Python numbers
(`g = torch.min(torch.as_tensor(group), torch.as_tensor(n))`, `torch.as_tensor(w) * 2`) is not
flagged as a size or count: Dynamo's fake tensor keeps its value (it is flagged as a slice
bound, and BL102 flags `int(g)`, both of which break).
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
    fix_examples = (
        FixExample(
            before="""
import torch


def damp_peak(x):
    energy = x.pow(2).sum(-1)
    top = energy.argmax()
    y = x * 2
    y[top] *= 0.5
    return y - x[top]


compiled = torch.compile(damp_peak)
""",
            after="""
import torch


def damp_peak(x):
    energy = x.pow(2).sum(-1)
    top = energy.argmax()
    y = x * 2
    y[top.reshape(1)] *= 0.5
    return y - x[top.reshape(1)].squeeze(0)


compiled = torch.compile(damp_peak)
""",
            probe="(damp_peak, (torch.randn(5, 3),))",
        ),
        FixExample(
            before="""
import torch


def covariance(y):
    channels = y.shape[-1]
    c = torch.zeros(y.shape[0], channels, channels)
    pairs = torch.cartesian_prod(torch.arange(channels), torch.arange(channels))
    for pair in pairs:
        c[:, pair[0], pair[1]] = y[:, pair[0]] * y[:, pair[1]]
    return c


compiled = torch.compile(covariance)
""",
            after="""
import torch


def covariance(y):
    channels = y.shape[-1]
    c = torch.zeros(y.shape[0], channels, channels)
    pairs = [(i0, i1) for i0 in range(channels) for i1 in range(channels)]
    for pair in pairs:
        c[:, pair[0], pair[1]] = y[:, pair[0]] * y[:, pair[1]]
    return c


compiled = torch.compile(covariance)
""",
            probe="(covariance, (torch.randn(5, 3),))",
        ),
        FixExample(
            before="""
import torch


def clipped(x):
    limit = x.abs().mean()
    return torch.clamp(x, 0, limit) - x.clip(-limit, 1.0)  # both ways


compiled = torch.compile(clipped)
""",
            after="""
import torch


def clipped(x):
    limit = x.abs().mean()
    return torch.clamp(x, min=0).clamp(max=limit) - x.clip(min=-limit).clip(max=1.0)  # both ways


compiled = torch.compile(clipped)
""",
            probe="(clipped, (torch.randn(16),))",
        ),
    )
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "index-pairs": _index_pairs,
        "split-bounds": _split_bounds,
        "split-bounds-of": _split_bounds_of,
        "index-kept-dim": _kept_dimension,
        "index-kept-dim-store": _kept_dimension,
    }

    # the functions and methods that take sizes; subscripts (slices, indices) besides
    words = called(*FUNCTIONS, *NUMBER_PARAMETERS, *LINKED_NUMBER_PARAMETERS) | frozenset(METHODS)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return "[" in outline.code or super().may_report(outline)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # Loop variables over a tensor (`for pair in pairs:`): rows, whose elements are 0-dim
        # tensors when the tensor has two dimensions, as tensors of index pairs do; each with
        # the fix that makes the rows Python ints, where one fits.
        self._rows: dict[str, Fix | None] = {}
        # Locals bound to a full reduction of a tensor (`top = scores.argmax()`), or that a
        # loop over a tensor of one dimension binds: a 0-dim tensor, until rebound.
        self._reductions: set[str] = set()
        # Locals bound to a tensor of one dimension (`rows, cols = torch.where(mask)`,
        # `order = torch.randperm(n)`), until rebound.
        self._vectors: set[str] = set()
        # Locals bound to a tensor made of Python numbers (`g = torch.as_tensor(n)`), until
        # rebound.
        self._number_tensors: set[str] = set()
        # The targets of augmented assignments (`s[m] *= 0`: BL302 flags the masked read).
        self._augmented: set[int] = set()
        # Subscripts read once into a new value, by id: an operand of arithmetic or of a
        # comparison, or the value stored into an element (`out[0] = x[i]`); a copy of what
        # they read is as good as the view.
        self._consumed: set[int] = set()

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self._consumed.update((id(node.left), id(node.right)))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        self._consumed.add(id(node.operand))

    def visit_Compare(self, node: ast.Compare) -> None:
        self._consumed.update(id(part) for part in (node.left, *node.comparators))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._forget(target)
        if all(isinstance(target, ast.Subscript) for target in node.targets):
            self._consumed.add(id(node.value))  # `out[0] = x[i]` copies what it reads
        target = node.targets[0]
        single = len(node.targets) == 1 and isinstance(target, ast.Name)
        if single and self._full_reduction(node.value):
            assert isinstance(target, ast.Name)
            self._reductions.add(target.id)
        elif single and self._vector(node.value):
            assert isinstance(target, ast.Name)
            self._vectors.add(target.id)
        elif single and self._number_tensor(node.value):
            assert isinstance(target, ast.Name)
            self._number_tensors.add(target.id)
        elif (
            len(node.targets) == 1
            and isinstance(target, ast.Tuple)
            and self._index_tuple(node.value)
        ):
            # `rows, cols = torch.where(mask)`: one index tensor per dimension
            self._vectors.update(e.id for e in target.elts if isinstance(e, ast.Name))
        elif len(node.targets) == 1 and isinstance(target, ast.Tuple):
            # `values, counts = torch.unique(x, return_counts=True)`
            vectors = self._unique_vectors(node.value, len(target.elts))
            self._vectors.update(
                e.id
                for at, e in enumerate(target.elts)
                if at in vectors and isinstance(e, ast.Name)
            )

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._forget(node.target)
        self._augmented.add(id(node.target))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._forget(node.target)

    def _forget(self, target: ast.expr) -> None:
        if not (self._reductions or self._vectors or self._number_tensors):
            return  # most functions bind none of them: nothing to forget
        # Most targets are a name: no walk of a tree of one node for every assignment.
        for bound in (target,) if type(target) is ast.Name else ast.walk(target):
            # Not the names a store reads: `s[m] = 0` leaves `s` what it was.
            if isinstance(bound, ast.Name) and isinstance(bound.ctx, ast.Store):
                self._reductions.discard(bound.id)
                self._vectors.discard(bound.id)
                self._number_tensors.discard(bound.id)

    def _vector(self, value: ast.expr) -> bool:
        """A tensor of one dimension: a local bound to one, `torch.arange(n)`, or one index
        tensor of `torch.where(mask)` (`torch.where(mask)[0]`)."""
        if isinstance(value, ast.Name):
            return value.id in self._vectors and self.context.facts.kind(value).is_tensor
        facts = self.context.facts
        if isinstance(value, ast.BinOp):
            # `counts - 1`: a vector and a number, element by element
            parts = (value.left, value.right)
            return any(self._vector(p) for p in parts) and all(
                self._vector(p) or facts.kind(p) is Kind.PYTHON for p in parts
            )
        if isinstance(value, ast.Call) and self._unique_vectors(value, 1):
            return True  # `torch.unique(x)`: its distinct values, flattened
        call = facts.tensor_method(value) if isinstance(value, ast.Call) else None
        if call is not None and call[1] in SHAPE_KEEPING_METHODS:
            # `counts.cumsum(0)`: the shape kept (a `dim` other than 0 would raise)
            return self._vector(call[0])
        if isinstance(value, ast.Subscript):
            index = value.slice
            return (
                isinstance(value.value, ast.Call)
                and self._index_tuple(value.value)
                and isinstance(index, ast.Constant)
                and isinstance(index.value, int)
            )
        return (
            isinstance(value, ast.Call)
            and self.context.facts.resolve(value.func) in VECTOR_FUNCTIONS
        )

    def _unique_vectors(self, value: ast.expr, results: int) -> set[int]:
        """`torch.unique(x, ...)` (or `x.unique(...)`) with no `dim`, whose results are
        unpacked into `results` names: the positions of those of one dimension, the distinct
        values and their counts (the inverse has the shape of `x`)."""
        if not isinstance(value, ast.Call):
            return set()
        facts = self.context.facts
        call = facts.tensor_method(value)
        if facts.resolve(value.func) == "torch.unique":
            given = len(value.args) - 1
        elif call is not None and call[1] == "unique" and facts.kind(call[0]).is_tensor:
            given = len(value.args)
        else:
            return set()
        flags = {k.arg: k.value for k in value.keywords}
        if given > 0 or "dim" in flags or None in flags:
            return set()  # `sorted`, `return_inverse` given by position, or a `dim`
        returned = {}
        for flag in ("return_inverse", "return_counts"):
            given_value = flags.get(flag)
            if given_value is None:
                returned[flag] = False
            elif isinstance(given_value, ast.Constant) and isinstance(given_value.value, bool):
                returned[flag] = given_value.value
            else:
                return set()  # decided by a value this rule does not know
        if 1 + sum(returned.values()) != results:
            return set()
        return {0, results - 1} if returned["return_counts"] else {0}

    def _number_tensor(self, value: ast.expr) -> bool:
        """A tensor made of Python numbers: `torch.as_tensor(n)` or `torch.tensor(n)` of a value
        that is no tensor, a local bound to one, their `torch.min`/`max`, and arithmetic of them
        with numbers (`g * 2`) or either of them and a number (`g if grouped else n`)."""
        facts = self.context.facts
        if isinstance(value, ast.Name):
            return value.id in self._number_tensors
        parts = (
            (value.left, value.right)
            if isinstance(value, ast.BinOp)
            else (value.body, value.orelse)
            if isinstance(value, ast.IfExp)
            else ()
        )
        if parts:
            return any(self._number_tensor(p) for p in parts) and all(
                self._number_tensor(p) or facts.kind(p) is Kind.PYTHON for p in parts
            )
        if not isinstance(value, ast.Call) or not value.args:
            return False
        name = facts.resolve(value.func)
        if name in NUMBER_TENSOR_FUNCTIONS:
            made_of = facts.kind(value.args[0])
            return not made_of.is_tensor and made_of is not Kind.TENSORS
        return name in NUMBER_TENSOR_COMBINERS and all(self._number_tensor(a) for a in value.args)

    def _index_tuple(self, value: ast.expr) -> bool:
        """`torch.where(mask)` of one argument, `torch.nonzero(x, as_tuple=True)`,
        `x.nonzero(as_tuple=True)`: a tuple of index tensors of one dimension."""
        if not isinstance(value, ast.Call):
            return False
        facts = self.context.facts
        name = facts.resolve(value.func)
        if name == "torch.where":
            return len(value.args) == 1 and not value.keywords
        as_tuple = any(
            k.arg == "as_tuple" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in value.keywords
        )
        if name == "torch.nonzero":
            return as_tuple
        call = facts.tensor_method(value)
        return (
            as_tuple and call is not None and call[1] == "nonzero" and facts.kind(call[0]).is_tensor
        )

    def _full_reduction(self, value: ast.expr) -> bool:
        """`scores.argmax()`: a certain tensor reduced to a 0-dim one."""
        if not isinstance(value, ast.Call) or value.args or value.keywords:
            return False
        facts = self.context.facts
        call = facts.tensor_method(value)
        return (
            call is not None
            and call[1] in FULL_REDUCTIONS
            and facts.kind(call[0]).is_tensor
            and not facts.rests_on_guess(call[0])
        )

    def visit_For(self, node: ast.For) -> None:
        self._forget(node.target)
        kind = self.context.facts.kind(node.iter)
        for target, iterated in self._iterated(node.target, node.iter):
            if self._vector(iterated):
                self._reductions.add(target.id)  # an element of a tensor of one dimension
            elif target is node.target and kind.is_tensor:
                self._rows[target.id] = self._index_pairs_fix(node, target.id)

    def _iterated(self, target: ast.expr, iterable: ast.expr) -> list[tuple[ast.Name, ast.expr]]:
        """The names a `for` binds, each with what it iterates: `for a, b in zip(xs, ys)`
        binds `a` from `xs`, `for i, x in enumerate(xs)` binds `x` from `xs`."""
        if isinstance(target, ast.Name):
            return [(target, iterable)]
        if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call):
            return []
        builtin = dotted(iterable.func)
        if builtin in self.context.facts.names or iterable.keywords:
            return []
        parts: list[ast.expr] = iterable.args
        if builtin == "enumerate" and len(parts) == 1 and len(target.elts) == 2:
            return self._iterated(target.elts[1], parts[0])
        if builtin != "zip" or len(parts) != len(target.elts):
            return []
        return [
            (element, part)
            for element, part in zip(target.elts, parts, strict=True)
            if isinstance(element, ast.Name) and not isinstance(part, ast.Starred)
        ]

    def _index_pairs_fix(self, loop: ast.For, row: str) -> Fix | None:
        """The `index-pairs` fix of a loop over `torch.cartesian_prod` of `torch.arange`s
        whose rows only index (see `fix_safety`)."""
        function = self.context.definition
        nodes = list(iter_nodes(function))
        iterated = loop.iter
        product = (
            _bound_once_for(nodes, iterated, loop) if isinstance(iterated, ast.Name) else iterated
        )
        if not isinstance(product, ast.Call) or not self._product_of_ranges(product):
            return None
        if not _only_indexed(nodes, row, loop, len(product.args)):
            return None
        message = "index with Python ints: `[(i0, i1) for i0 in range(a) for i1 in range(b)]`"
        return offer(self.context, product, message, "index-pairs", self.fix_applicability)

    def _product_of_ranges(self, call: ast.Call) -> bool:
        """`torch.cartesian_prod(torch.arange(...), ...)` of two or more `arange`s of Python
        numbers, all positional: what `range` gives the same values as."""
        facts = self.context.facts
        if facts.resolve(call.func) != "torch.cartesian_prod" or call.keywords:
            return False
        if len(call.args) < 2:
            return False
        taken = {f"i{index}" for index in range(len(call.args))}
        for argument in call.args:
            if not isinstance(argument, ast.Call) or argument.keywords:
                return False
            if facts.resolve(argument.func) != "torch.arange" or not 1 <= len(argument.args) <= 2:
                return False
            for bound in argument.args:
                if facts.kind(bound) is not Kind.PYTHON:
                    return False
                # A later `range` is evaluated where the earlier variables are bound.
                if any(isinstance(n, ast.Name) and n.id in taken for n in ast.walk(bound)):
                    return False
        return True

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
        self._check_zero_dim_store(node)
        for part in slices:
            if not isinstance(part, ast.Slice):
                self._check_index(part, node)

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        self._check_number_parameters(node, name)
        spec, offset = FUNCTIONS.get(name or ""), 0
        if spec is None and name is not None and name.startswith("torch."):
            spec, offset = METHODS.get(name.removeprefix("torch.")), 1
        maybe = False
        if spec is None:
            call = facts.tensor_method(node)
            # The method's name first: most calls name no method that takes sizes.
            if call is None or (spec := METHODS.get(call[1])) is None:
                return
            if facts.kind(call[0]) is Kind.PYTHON or _is_module(call[0], facts):
                return
            # A receiver not known for a tensor may be an object with a method of the same
            # name (`backend.reshape(x, shape)`): a warning at most.
            maybe = not facts.kind(call[0]).is_tensor
        if spec is None or (name == "range" and "range" in facts.names):
            return
        values = [
            value
            for a in spec.positions(node, offset)
            for value in _elements(a)
            if not self._number_tensor(value)
        ]
        self._check(values, f"`{_call_name(node, name)}`", maybe=maybe)

    def _check_number_parameters(self, node: ast.Call, name: str | None) -> None:
        """A tensor given where torch reads a Python number (`x.add(y, alpha=t)`,
        `F.leaky_relu(x, t)`), or for a bound of `clamp` whose other bound is a number."""
        facts = self.context.facts
        if name is not None and (name in NUMBER_PARAMETERS or name in LINKED_NUMBER_PARAMETERS):
            public, offset = name, 0
        else:
            call = facts.tensor_method(node)
            if call is None:
                return
            public, offset = f"Tensor.{call[1]}", 1
            # The method's name before the receiver's kind: most methods take no number.
            if public not in NUMBER_PARAMETERS and public not in LINKED_NUMBER_PARAMETERS:
                return
            if not facts.kind(call[0]).is_tensor:
                return
        needs = f"`{_call_name(node, name)}`"
        alone = NUMBER_PARAMETERS.get(public, {})
        given = [_given(node, parameter, at, offset) for parameter, at in alone.items()]
        self._check([value for value in given if value is not None], needs)
        linked = LINKED_NUMBER_PARAMETERS.get(public, {})
        bounds = [_given(node, parameter, at, offset) for parameter, at in linked.items()]
        present = [value for value in bounds if value is not None]
        if any(_python_number(value) for value in present):
            fix = self._split_bounds_fix(node, offset, len(present))
            self._check([value for value in present if not _python_number(value)], needs, fix)

    def _split_bounds_fix(self, node: ast.Call, offset: int, bounds: int) -> Fix | None:
        """`x.clamp(0, t)` given both bounds, one a number: each bound in a call of its own
        (`x.clamp(min=0).clamp(max=t)`), where `clamp` takes a tensor bound alone (measured on
        2.13: one graph). Only the bounds and the tensor as arguments (no `out=`); `offset` 1
        for a method, whose tensor is its receiver, 0 for a torch function given it first."""
        tensors = 1 - offset  # the tensor among the arguments: a torch function's first
        arguments = [*node.args, *node.keywords]
        plain = all(not isinstance(a, ast.Starred) for a in node.args) and all(
            k.arg in ("min", "max") for k in node.keywords
        )
        if bounds != 2 or len(arguments) != tensors + 2 or len(node.args) < tensors or not plain:
            return None
        name = method_call(node)  # `torch.clamp` or `x.clamp`: the method appended is its name
        if name is None:
            return None
        method = name[1]
        message = f"give the bounds one at a time: `.{method}(min=...).{method}(max=...)`"
        rewrite = "split-bounds-of" if tensors else "split-bounds"
        return offer(self.context, node, message, rewrite, self.fix_applicability)

    def _check(
        self, values: list[ast.expr], needs: str, fix: Fix | None = None, maybe: bool = False
    ) -> None:
        """Report the first tensor among values that must be Python numbers (a warning at most
        where the call `maybe` takes no numbers)."""
        facts = self.context.facts
        for value in values:
            # A parameter taken for a tensor only because it is one (`height`, `width`) is
            # far more often a Python int passed in as a size: not flagged.
            if not facts.kind(value).is_tensor:
                continue
            certain = not facts.rests_on_guess(value)
            if certain or facts.tensor_on_one_way(value):
                message = self.message.format(argument=ast.unparse(value), call=needs)
                severity = None if certain and not maybe else Severity.WARNING
                self.report(value, message, severity=severity, fix=fix)
                return

    def _check_zero_dim_store(self, node: ast.Subscript) -> None:
        """`s[mask] = 0` where `s` is a 0-dim tensor (`s = x.sum()`): the mask has no
        dimension either, and Dynamo reads its value (GB0033, whatever the capture knobs)."""
        facts = self.context.facts
        target = node.value
        if (
            isinstance(node.ctx, ast.Store)
            and id(node) not in self._augmented
            and isinstance(target, ast.Name)
            and target.id in self._reductions
            and facts.kind(target).is_tensor
            and facts.kind(node.slice).is_tensor
        ):
            message = self.zero_dim_store_message.format(
                target=target.id, written=ast.unparse(node)
            )
            self.report(node, message, hint=self.zero_dim_store_hint)

    def _check_index(self, part: ast.expr, node: ast.Subscript) -> None:
        """A 0-dim tensor as an integer index of `node`: Dynamo reads its value (GB0033)."""
        facts = self.context.facts
        # A local is checked again: a form not followed here may have rebound it to a number.
        reduced = isinstance(part, ast.Name) and part.id in self._reductions
        if (reduced and facts.kind(part).is_tensor) or self._full_reduction(part):
            message = self.index_message.format(argument=ast.unparse(part))
            self.report(part, message, fix=self._kept_dimension_fix(node))
            return
        if (
            isinstance(part, ast.Subscript)
            and _int_constant(part.slice)
            and self._vector(part.value)
        ):
            # `x[order[0]]`: an element of a tensor of one dimension, a 0-dim tensor
            message = self.index_message.format(argument=ast.unparse(part))
            self.report(part, message, fix=self._kept_dimension_fix(node))
            return
        element = (
            isinstance(part, ast.Subscript)
            and isinstance(part.value, ast.Name)
            and part.value.id in self._rows
            and not isinstance(part.slice, ast.Slice | ast.Tuple)
            and not facts.kind(part.slice).is_tensor
        )
        if element:
            assert isinstance(part, ast.Subscript) and isinstance(part.value, ast.Name)
            fix = self._rows[part.value.id]
            message = self.maybe_index_message.format(argument=ast.unparse(part))
            hint = None if fix else self.index_hint
            self.report(part, message, hint=hint, fix=fix, severity=Severity.WARNING)

    def _kept_dimension_fix(self, node: ast.Subscript) -> Fix | None:
        """`index-kept-dim`: the 0-dim index of `node`, among slices only, made a tensor of one
        index (`i.reshape(1)`), which Dynamo traces: read (`x[:, i]`, where it is read once
        into a new value, as a copy is as good as the view) with that dimension squeezed
        again, or written to (`x[i] = v`, `x[i] += v`) as it is."""
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        if sum(not isinstance(part, ast.Slice) for part in parts) != 1:
            return None
        if isinstance(node.ctx, ast.Store):
            rewrite = "index-kept-dim-store"
            message = "index with a tensor of one index: `x[i.reshape(1)] = ...`"
        elif id(node) in self._consumed:
            rewrite = "index-kept-dim"
            message = "index with a tensor of one index: `x[i.reshape(1)].squeeze(0)`"
        else:
            return None
        return offer(self.context, node, message, rewrite, self.fix_applicability)


def _int_constant(node: ast.expr) -> bool:
    """`0` or `-1`: an int written in the code."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _bound_once_for(nodes: list[ast.AST], name: ast.Name, loop: ast.For) -> ast.expr | None:
    """The value of `name = value`, where that is the function's only binding of `name`, before
    `loop`, and `loop`'s iterable is its only read."""
    uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == name.id]
    if len(uses) != 2 or not any(use is name for use in uses):
        return None
    assignments = [
        n
        for n in nodes
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and n.targets[0] in uses
    ]
    if len(assignments) != 1 or assignments[0].lineno >= loop.lineno:
        return None
    return assignments[0].value


def _only_indexed(nodes: list[ast.AST], row: str, loop: ast.For, width: int) -> bool:
    """Whether every read of the loop variable `row` is an element of it (`row[0]`, a constant
    below `width`) that is an index of a subscript, and `loop` alone binds it."""
    indexing: set[int] = set()  # ids of the loads of `row` that are such elements
    for node in nodes:
        if not isinstance(node, ast.Subscript):
            continue
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            element = (
                isinstance(part, ast.Subscript)
                and isinstance(part.value, ast.Name)
                and part.value.id == row
                and isinstance(part.slice, ast.Constant)
                and type(part.slice.value) is int
                and 0 <= part.slice.value < width
            )
            if element:
                assert isinstance(part, ast.Subscript)
                indexing.add(id(part.value))
    uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == row]
    stores = [n for n in uses if not isinstance(n.ctx, ast.Load)]
    loads = [n for n in uses if isinstance(n.ctx, ast.Load)]
    bound_by_loop = len(stores) == 1 and stores[0] is loop.target
    return bound_by_loop and bool(loads) and all(id(n) in indexing for n in loads)
