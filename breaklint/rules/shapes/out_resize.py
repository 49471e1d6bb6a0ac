from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer, owns_its_lines
from breaklint.rule import FixExample, Rule, RuleContext

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# Tensor types whose call without arguments makes an empty tensor (`torch.Tensor()`).
_TENSOR_TYPES = frozenset(
    f"torch.{kind}Tensor"
    for kind in ("", "Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte")
) | {"torch.BoolTensor"}
# Makers whose only size argument may be 0 (`torch.empty(0)`, `x.new_zeros(0)`).
_SIZED = frozenset({"torch.empty", "torch.zeros", "torch.ones"})
_SIZED_METHODS = frozenset({"new_empty", "new_zeros", "new_ones"})
# What a tensor's name may be read for without another name coming to hold it: its metadata.
_METADATA = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "layout"})
_METADATA_METHODS = frozenset({"size", "dim", "numel", "nelement", "element_size", "stride"})
# torch functions that may return their argument itself or a view of it.
_VIEWING = frozenset(
    f"torch.{name}"
    for name in (
        "narrow", "select", "squeeze", "unsqueeze", "reshape", "flatten", "unflatten",
        "transpose", "swapaxes", "swapdims", "permute", "movedim", "moveaxis", "t", "adjoint",
        "split", "tensor_split", "chunk", "unbind", "diagonal", "as_strided", "detach",
        "broadcast_to", "atleast_1d", "atleast_2d", "atleast_3d", "view_as_real",
        "view_as_complex", "real", "imag", "conj", "resolve_conj", "resolve_neg", "as_tensor",
        "asarray", "broadcast_tensors", "hsplit", "vsplit", "dsplit",
    )
)  # fmt: skip


def _take_result(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `take-result` fix: `f(..., out=buf)` on its own line becomes `buf = f(...)`."""
    import libcst as cst

    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return None
    statement = node.body[0]
    if not isinstance(statement, cst.Expr) or not isinstance(statement.value, cst.Call):
        return None
    call = statement.value
    outs = [a for a in call.args if a.keyword is not None and a.keyword.value == "out"]
    if len(outs) != 1 or not isinstance(outs[0].value, cst.Name):
        return None
    kept = [a for a in call.args if a is not outs[0]]
    if kept:  # the comma the last argument had before `out=` goes with it
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    assign = cst.Assign(
        targets=[cst.AssignTarget(target=cst.Name(outs[0].value.value))],
        value=call.with_changes(args=kept),
        semicolon=statement.semicolon,
    )
    return node.with_changes(body=[assign])


class OutResize(Rule):
    code = "BL305"
    name = "out-resize"
    words = frozenset({"out"})
    severity = Severity.ERROR
    message = (
        "`out={name}` writes into a tensor made empty here: the result resizes it, which Dynamo "
        "cannot do in a graph; it breaks the graph here"
    )
    hint = "take the result instead of writing it into an empty tensor: `{name} = f(...)`"
    fix_applicability = Applicability.UNSAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"take-result": _take_result}
    fix_safety = """
Unsafe fix: a call on its own line, `torch.index_select(x, 0, idx, out=rows)`, becomes `rows =
torch.index_select(x, 0, idx)`: the name holds the result instead of the empty tensor resized
to it. Offered only where nothing else can hold that tensor or a view of it, so no other name
sees the difference: in the whole function the name is read only for other `out=` arguments,
as an operand (`rows * 2`, `rows > 0`), for its metadata (`rows.shape`, `rows.size(0)`), as an
argument of a torch function that returns a new tensor (`torch.clamp(rows, min=0)`, not
`torch.narrow` or `torch.reshape`) or of another tensor's method (`w.resize_as_(rows)`), or
returned. Unsafe because the result keeps the dtype and device the call computes, where the
empty tensor's could differ (`torch.LongTensor()` given a float result casts it with `out=`).
Where the name is read otherwise, the hint shows the rewrite to make by hand.
"""
    what = """
Flags a torch call given `out=` a local bound, last before the call, to an empty tensor:
`x.new()`, `torch.Tensor()` (or a typed `torch.FloatTensor()`...), `torch.empty(0)`,
`torch.zeros(0)`, `torch.ones(0)`, `x.new_empty(0)`, `x.new_zeros(0)`, `x.new_ones(0)`, the
buffers older code preallocates for `torch.index_select(x, 0, idx, out=buf)`. A local bound to
a tensor of the result's size, or a tensor passed in, is not flagged: Dynamo writes into it in
the graph.
"""
    why = """
With `out=`, torch resizes the out tensor to the result's shape. Dynamo traces out= variants
only when the out tensor already has that shape: a mismatch ("Shape mismatch with out= tensor
variant") breaks the graph, and in a loop the whole frame runs eagerly.
"""
    example = """
import torch


def gather_rows(x, idx):
    rows = x.new()
    torch.index_select(x, 0, idx, out=rows)
    return rows * 2


compiled = torch.compile(gather_rows)
"""
    use_instead = """
import torch


def gather_rows(x, idx):
    rows = torch.index_select(x, 0, idx)
    return rows * 2


compiled = torch.compile(gather_rows)
"""
    probe = "(gather_rows, (torch.randn(5, 3), torch.tensor([0, 2, 4])))"
    gb_ids = ("GB0247",)
    fix_examples = (
        FixExample(
            before="""
import torch


def suppress(boxes, order):
    x1 = boxes[:, 0]
    x2 = boxes[:, 2]
    xx1 = boxes.new()
    xx2 = boxes.new()
    widths = []
    for _ in range(3):
        first = order[:1]
        order = order[1:]
        torch.index_select(x1, 0, order, out=xx1)
        torch.index_select(x2, 0, order, out=xx2)
        xx1 = torch.maximum(xx1, x1[first])
        widths.append((xx2 - xx1).clamp(min=0.0).sum())
    return torch.stack(widths)


compiled = torch.compile(suppress)
""",
            after="""
import torch


def suppress(boxes, order):
    x1 = boxes[:, 0]
    x2 = boxes[:, 2]
    xx1 = boxes.new()
    xx2 = boxes.new()
    widths = []
    for _ in range(3):
        first = order[:1]
        order = order[1:]
        xx1 = torch.index_select(x1, 0, order)
        xx2 = torch.index_select(x2, 0, order)
        xx1 = torch.maximum(xx1, x1[first])
        widths.append((xx2 - xx1).clamp(min=0.0).sum())
    return torch.stack(widths)


compiled = torch.compile(suppress)
""",
            probe="(suppress, (torch.rand(6, 4), torch.arange(6)))",
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # Locals bound to an empty tensor, until rebound.
        self._empty: set[str] = set()
        self._function: ast.FunctionDef | ast.AsyncFunctionDef | None = None

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.context.facts.in_outer_function:
            self._function = node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            for bound in (target,) if type(target) is ast.Name else ast.walk(target):
                if isinstance(bound, ast.Name):
                    self._empty.discard(bound.id)
        target = node.targets[0]
        if (
            len(node.targets) == 1
            and isinstance(target, ast.Name)
            and self._makes_empty(node.value)
        ):
            self._empty.add(target.id)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self._empty.discard(node.target.id)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name):
            self._empty.discard(node.target.id)

    def visit_Call(self, node: ast.Call) -> None:
        for keyword in node.keywords:
            out = keyword.value
            if keyword.arg == "out" and isinstance(out, ast.Name) and out.id in self._empty:
                self.report(
                    keyword,
                    self.message.format(name=out.id),
                    hint=self.hint.format(name=out.id),
                    fix=self._result_taken(node, out.id),
                )

    def _result_taken(self, call: ast.Call, name: str) -> Fix | None:
        """The `take-result` fix, where the call is a statement of its own and no other name
        can come to hold the tensor `name` holds."""
        statement = self.context.facts.statement_of(call)
        if statement is None or not owns_its_lines(self.context, statement):
            return None
        if self._function is None or not self._held_by_itself(self._function, name):
            return None
        return offer(
            self.context, statement, f"take the result: `{name} = ...` without `out=`",
            "take-result", self.fix_applicability,
        )  # fmt: skip

    def _held_by_itself(self, function: ast.AST, name: str) -> bool:
        """Whether every read of `name` in `function` leaves no other name holding its tensor
        (or a view of it): see `fix_safety`."""
        for parent in ast.walk(function):
            if isinstance(parent, ast.Call):
                # Reads as arguments: an `out=`, or what a torch function or another tensor's
                # method reads and does not return.
                arguments = [*parent.args, *(k.value for k in parent.keywords if k.arg != "out")]
                if any(_is_name(a, name) for a in arguments) and not self._reads_only(parent):
                    return False
                children: list[ast.AST] = [parent.func]
            elif isinstance(parent, ast.keyword):
                continue
            else:
                children = list(ast.iter_child_nodes(parent))
            for child in children:
                if _is_name(child, name) and not _read_for_its_values(parent, child):
                    return False
        return True

    def _reads_only(self, call: ast.Call) -> bool:
        facts = self.context.facts
        called = facts.resolve(call.func) or ""
        if called.startswith("torch.") and called not in _VIEWING:
            return True
        function = call.func
        return (
            isinstance(function, ast.Attribute)
            and function.attr != "set_"  # `w.set_(rows)`: `w` shares the storage
            and facts.kind(function.value).is_tensor
        )

    def _makes_empty(self, value: ast.expr) -> bool:
        """Whether `value` makes an empty tensor: `x.new()`, `torch.Tensor()`, a size of 0."""
        if not isinstance(value, ast.Call):
            return False
        facts = self.context.facts
        name = facts.resolve(value.func)
        method = value.func.attr if isinstance(value.func, ast.Attribute) else None
        on_tensor = isinstance(value.func, ast.Attribute) and facts.kind(value.func.value).is_tensor
        if value.keywords and name not in _SIZED and method not in _SIZED_METHODS:
            return False
        if not value.args and (name in _TENSOR_TYPES or (method == "new" and on_tensor)):
            return True
        sized = name in _SIZED or (method in _SIZED_METHODS and on_tensor)
        return sized and len(value.args) == 1 and _zero_size(value.args[0])


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)


def _read_for_its_values(parent: ast.AST, name: ast.AST) -> bool:
    """A read of a name whose value no other name comes to hold: an operand, its metadata,
    what is returned."""
    if isinstance(parent, ast.BinOp | ast.UnaryOp | ast.Compare | ast.Return):
        return True
    if isinstance(parent, ast.Attribute):
        return parent.attr in _METADATA or parent.attr in _METADATA_METHODS
    return False


def _zero_size(size: ast.expr) -> bool:
    """`0`, `(0,)` or `[0]`."""
    if isinstance(size, ast.Tuple | ast.List) and len(size.elts) == 1:
        size = size.elts[0]
    return isinstance(size, ast.Constant) and type(size.value) is int and size.value == 0
