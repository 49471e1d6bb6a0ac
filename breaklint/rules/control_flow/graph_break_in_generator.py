import ast

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer, target_of
from breaklint.rule import FixExample, Report, RuleContext
from breaklint.rules.control_flow._frame_skip import FrameSkip
from breaklint.syntax import contains

# Builtins that run a generator expression to its end where they are called (measured under
# Dynamo 2.13: a break inside the generator skips the caller's frame for each of them).
CONSUMERS = frozenset({"all", "any", "sum", "min", "max", "tuple", "list", "set", "sorted"})
# The fixes of a break in the generator this finding carries where they rewrite the statement
# holding the call: rewrites any rule may make (`rewrites.SHARED`; that module loads libcst,
# which linting does not), each making a statement run only when not compiling or checking in
# the graph.
CARRIED = frozenset({"guard", "check", "check-any", "assert-check", "assert-reads"})


class GraphBreakInGenerator(FrameSkip):
    code = "BL206"
    name = "graph-break-in-generator"
    severity = Severity.ERROR
    message = (
        "graph break inside a generator expression ({codes}) that this call consumes: Dynamo "
        "cannot rebuild the generator to resume after the break, so it skips the whole frame "
        "and `{function}` runs eagerly, with no graph at all"
    )
    hint = (
        "make the generator's element traceable (see {codes}), or compute it with a `for` "
        "loop over a tensor operation (`torch.stack(...)`) before the call"
    )
    fix_safety = """
Unsafe fix: the generator expression becomes a list comprehension (`all(f(t) for t in ys)` ->
`all([f(t) for t in ys])`). Dynamo breaks the graph inside a list comprehension and resumes
after it, so the frame is no longer skipped (measured on 2.13 for `all` and `sum`); the break
of the element stays. Offered only where no break in the generator has a fix of its own (that
fix removes the break, and the skip with it); where that fix rewrites the statement holding
the call (an `if` it tests, then run only when not compiling: BL105's, BL102's), this finding
carries the same fix, with that rule's caveats. Unsafe: every element is computed before the
builtin runs, where `all` and `any` stop at the first element that decides the answer (an
element that raises or has side effects after that one now runs), and the list is held in
memory at once.
"""
    what = """
Flags a call of `all`, `any`, `sum`, `min`, `max`, `tuple`, `list`, `set` or `sorted` on a
generator expression whose element or condition breaks the graph (another rule's finding, or
a call of a project function that breaks inside it), at the call. Once such a break certainly
skips the frame, the breaks found on later lines become info, as after BL202. A break in the
first iterable (`for t in f(x)`) runs in the function itself and is not one of them.
"""
    why = """
Dynamo runs a generator expression passed to a builtin while it traces the call. When the
generator breaks the graph, Dynamo would have to resume in the middle of the generator, which
it cannot rebuild ("Generator reconstruction with mutations", GB8335): it gives up on the whole
frame, which runs eagerly. The same holds when the element calls a function that breaks
(measured with torch 2.13 and Python 3.11, for each builtin listed; a list, set or dict
comprehension instead breaks the graph at its line without skipping the frame).
"""
    example = """
import torch


def same(x, ys: tuple[torch.Tensor, ...]):
    y = x + 1
    ok = all(t.sum().item() > 0 for t in ys)
    return y * 2 if ok else y


compiled = torch.compile(same)
"""
    use_instead = """
import torch


def same(x, ys: tuple[torch.Tensor, ...]):
    y = x + 1
    ok = torch.stack([t.sum() for t in ys]).gt(0).all()
    return torch.where(ok, y * 2, y)


compiled = torch.compile(same)
"""
    probe = "(same, (torch.randn(8), (torch.randn(8), torch.randn(8))))"
    gb_ids = ("GB8335",)
    fix_applicability = Applicability.UNSAFE
    fix_examples = (
        FixExample(
            before="""
import torch


def any_empty(x, ys: tuple[torch.Tensor, ...]):
    y = x + 1
    empty = any(t.nonzero().shape[0] == 0 for t in ys)
    return y if empty else y * 2


compiled = torch.compile(any_empty)
""",
            after="""
import torch


def any_empty(x, ys: tuple[torch.Tensor, ...]):
    y = x + 1
    empty = any([t.nonzero().shape[0] == 0 for t in ys])
    return y if empty else y * 2


compiled = torch.compile(any_empty)
""",
            probe="(any_empty, (torch.randn(8), (torch.randn(8), torch.zeros(8))))",
            counts=(1, 1),  # `nonzero` still breaks, but the frame resumes after the list
        ),
    )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        # Each generator expression a consuming builtin is called on, by id, with its call.
        self._consumed: dict[int, tuple[ast.GeneratorExp, ast.Call]] = {}
        self._conditional: dict[int, bool] = {}  # by id of a report: under a trace-time `if`
        # The nodes of other rules' reports that have a fix, with it.
        self._fixed: list[tuple[ast.AST, Fix]] = []

    def visit_Call(self, node: ast.Call) -> None:
        super().visit_Call(node)
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id in CONSUMERS
            and func.id not in self.context.facts.names
        ):
            for argument in node.args:
                if isinstance(argument, ast.GeneratorExp):
                    self._consumed[id(argument)] = (argument, node)

    def finish(self, reports: list[Report]) -> None:
        self._fixed = [(report.node, report.fix) for report in reports if report.fix is not None]
        super().finish(reports)

    def skip_fix(self, node: ast.AST) -> Fix | None:
        # A fix of a break in the generator (or of the call: `all()` reduced in the graph)
        # removes the break itself, and the skip with it: that fix, not this one. Where it
        # rewrites a statement holding the call (the `if` it tests, run only when not
        # compiling) with a rewrite any rule may make, this finding carries it too.
        inner = [fix for fixed, fix in self._fixed if contains(node, fixed)]
        if inner:
            where = target_of(self.context, node)
            holding = (f for f in inner if f.rewrite in CARRIED and f.target.holds(where))
            return next(holding, None)
        message = "compute the generator's elements in a list comprehension"
        return offer(self.context, node, message, "listed", self.fix_applicability)

    def observe(self, report: Report) -> None:
        if self._consumed:
            self._conditional[id(report)] = self.context.facts.conditional

    def block_of(self, report: Report) -> tuple[int, bool] | None:
        if id(report) not in self._conditional:
            return None
        for block, (generator, _) in self._consumed.items():
            first_iterable = generator.generators[0].iter  # evaluated in the caller's frame
            if contains(generator, report.node) and not contains(first_iterable, report.node):
                return block, self._conditional[id(report)]
        return None

    def skip_node(self, block: int, first: Report) -> ast.AST:
        return self._consumed[block][1]
