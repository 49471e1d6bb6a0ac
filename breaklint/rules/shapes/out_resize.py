from __future__ import annotations

import ast

from breaklint.findings import Severity
from breaklint.rule import Rule, RuleContext

# Tensor types whose call without arguments makes an empty tensor (`torch.Tensor()`).
_TENSOR_TYPES = frozenset(
    f"torch.{kind}Tensor"
    for kind in ("", "Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte")
) | {"torch.BoolTensor"}
# Makers whose only size argument may be 0 (`torch.empty(0)`, `x.new_zeros(0)`).
_SIZED = frozenset({"torch.empty", "torch.zeros", "torch.ones"})
_SIZED_METHODS = frozenset({"new_empty", "new_zeros", "new_ones"})


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
    fix_safety = """
No automatic fix: taking the result (`rows = torch.index_select(x, 0, idx)`) removes the break,
but it keeps the eager outputs only where nothing else holds the empty tensor: a name or an
attribute bound to it between its making and the call sees the result with `out=` and still the
empty tensor after the rewrite, and the rule does not follow such aliases. The hint shows the
rewrite to make by hand.
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

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # Locals bound to an empty tensor, until rebound.
        self._empty: set[str] = set()

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


def _zero_size(size: ast.expr) -> bool:
    """`0`, `(0,)` or `[0]`."""
    if isinstance(size, ast.Tuple | ast.List) and len(size.elts) == 1:
        size = size.elts[0]
    return isinstance(size, ast.Constant) and type(size.value) is int and size.value == 0
