import ast

from breaklint.findings import Severity
from breaklint.kinds import Kind
from breaklint.knowledge.tensor_facts import SPARSE_FIRST_FUNCTIONS, SPARSE_ONLY_METHODS
from breaklint.rule import Outline, Report, Rule, RuleContext
from breaklint.rules.control_flow._frame_skip import after_skip, severity_of
from breaklint.syntax import method_call, own_expressions

# Calls that only keep a reference to what they are given: Dynamo wraps a value where it is
# used, not where it is stored (measured on 2.13: `parts.append(a)` and `ctx.save_for_backward(a,
# b)` do not break; the `torch.matmul(a, b)` after them does).
_STORING_METHODS = frozenset(
    {"append", "extend", "insert", "save_for_backward", "mark_dirty", "mark_non_differentiable"}
)


# The last part of each name (`spmm` of `torch.spmm`): a word a function passing one must hold.
SPARSE_FIRST_NAMES = frozenset(name.rpartition(".")[2] for name in SPARSE_FIRST_FUNCTIONS)


class SparseTensorRead(Rule):
    code = "BL512"
    name = "sparse-tensor-read"
    words = frozenset({"sparse_coo_tensor", "to_sparse", *SPARSE_ONLY_METHODS, *SPARSE_FIRST_NAMES})
    severity = Severity.ERROR
    message = (
        "`{name}` is a sparse tensor, which Dynamo cannot wrap: it gives up on the frame at its "
        "first read, here, and `{function}` runs eagerly from here on, with no graph"
    )
    hint = "make the sparse tensor and multiply with it outside the compiled code"
    fix_safety = """
No automatic fix: what replaces a sparse tensor (a dense one, an index and values) changes
the memory the computation takes, and where it runs is the caller's choice.
"""
    what = """
Flags the first statement of a compiled function that reads a sparse tensor: a local made with
`torch.sparse_coo_tensor(...)` or `t.to_sparse()` (read after the call that makes it, which is
a break of its own, BL509), or a parameter that its callers pass one in (a project function
given a sparse tensor, however many calls down: a warning where only some callers do), or one
the function calls a method on that only sparse tensors have (`sparse._indices()`, a warning),
or passes first to a torch function that multiplies a sparse matrix by a dense one
(`torch.spmm(adj, x)`, `torch.sparse.mm`; a warning: `spmm` takes a dense one too).
Only the first read of each function is flagged: Dynamo gives up on the frame there, so the
breaks other rules find after it in the function are info (none certain, a warning at most,
where the tensor only may be sparse). Storing a
reference is no read (an element of a list or tuple the function builds, `parts.append(a)`,
`ctx.save_for_backward(a, b)`); returning one is.
"""
    why = """
Dynamo cannot wrap a sparse tensor as a value of the frame it traces (GB0015, "Attempted to wrap
sparse Tensor"; measured on 2.13). It wraps a frame's values where they are first read, so it
gets there and fails: it cannot resume, and skips the frame, which runs eagerly from that
statement (in the function that made the tensor, the rest after the break the making causes;
in a function given one, all of it). Each function the sparse tensor is passed on to is
compiled on its own when it runs, and skipped the same way at its first read.
"""
    example = """
import torch


def spread(x):
    index = torch.tensor([[0, 1], [1, 0]])
    weights = torch.sparse_coo_tensor(index, torch.ones(2), (2, 2))
    y = x * 2
    return torch.sparse.mm(weights, y)


compiled = torch.compile(spread)
"""
    use_instead = """
import torch


def spread(x):
    index = torch.tensor([[0, 1], [1, 0]])
    weights = torch.zeros(2, 2).index_put((index[0], index[1]), torch.ones(2))
    y = x * 2
    return weights @ y


compiled = torch.compile(spread)
"""
    probe = "(spread, (torch.randn(2, 3),))"
    gb_ids = ("GB0015",)
    breaks_graph = False  # the frame is skipped, from the read on

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """A function that makes a sparse tensor, is given one or gets one from a call."""
        function = outline.function
        handed = (*function.parameter_kinds, *function.call_kinds)
        return super().may_report(outline) or any(kind.endswith("sparse") for kind in handed)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._reported = False  # Dynamo gives up at the first read: later ones never run
        self._first: Report | None = None  # the first read's report

    def restate(self, reports: list[Report]) -> list[Report]:
        """Dynamo gives up on the frame at the first read: the breaks after it are none (info)
        where the tensor is sparse for certain, and none certain (a warning at most) where it
        only may be (measured on 2.13: tests/projects/sparse_skips)."""
        first = self._first
        if first is None:
            return reports
        return after_skip(reports, first, severity_of(first) is Severity.ERROR)

    def _statement(self, node: ast.stmt) -> None:
        """The first read of a sparse tensor in the statement's own expressions (not in the
        statements it holds, visited next)."""
        facts = self.context.facts
        if self._reported or not facts.in_outer_function:
            return
        stored = _only_stored(node)
        for child in own_expressions(node):
            if (
                isinstance(child, ast.Name)
                and isinstance(child.ctx, ast.Load)
                and child not in stored
                and facts.kind(child) is Kind.SPARSE
            ):
                # A parameter some callers only pass one in: where they call.
                guess = Severity.WARNING if facts.rests_on_guess(child) else None
                message = self.message.format(name=child.id, function=self.context.function)
                before = len(self.reports)
                self.report(child, message, severity=guess)
                self._reported = True
                if len(self.reports) > before:
                    self._first = self.reports[-1]
                return

    visit_Expr = visit_Assign = visit_AugAssign = visit_AnnAssign = _statement
    visit_Return = visit_If = visit_While = visit_For = visit_AsyncFor = _statement
    visit_With = visit_AsyncWith = visit_Assert = visit_Raise = visit_Match = _statement


def _only_stored(statement: ast.stmt) -> set[ast.Name]:
    """Names the statement only stores a reference to: elements of a tuple, list or set it
    builds (not one it unpacks into, returns or yields: Dynamo wraps what leaves the frame) and
    arguments of a storing method's call."""
    stored: set[ast.Name] = set()
    expressions = list(own_expressions(statement))
    leaves = isinstance(statement, ast.Return) or any(
        isinstance(child, ast.Yield | ast.YieldFrom | ast.Await) for child in expressions
    )
    for child in expressions:
        if (
            isinstance(child, ast.Tuple | ast.List | ast.Set)
            and not leaves
            and not isinstance(getattr(child, "ctx", ast.Load()), ast.Store)
        ):
            stored.update(e for e in child.elts if isinstance(e, ast.Name))
        elif isinstance(child, ast.Call):
            call = method_call(child)
            if call is not None and call[1] in _STORING_METHODS:
                stored.update(a for a in child.args if isinstance(a, ast.Name))
    return stored
