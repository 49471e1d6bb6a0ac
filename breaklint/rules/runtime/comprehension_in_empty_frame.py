from __future__ import annotations

import ast
from dataclasses import dataclass

from breaklint.findings import Severity
from breaklint.knowledge.curated import OP_FREE_BUILTINS as _OP_FREE_BUILTINS
from breaklint.knowledge.curated import OP_FREE_CALLS as _OP_FREE_CALLS
from breaklint.knowledge.curated import OP_FREE_METHODS as _OP_FREE_METHODS
from breaklint.rule import Report, Rule, RuleContext, all_rules
from breaklint.rules.control_flow._frame_skip import Position, own_breaks, position, severity_of
from breaklint.rules.control_flow._iterables import (
    Comprehension,
    comprehension_touches,
    list_or_dict,
)
from breaklint.scope import eager_making
from breaklint.syntax import contains, dotted, iter_nodes, method_call
from breaklint.tensorness import FunctionFacts

# Tensor methods that read metadata: no op in the graph.
_TENSOR_METADATA_METHODS = frozenset({"dim", "size"})
# Builtins whose iterator a comprehension's frame is given and Dynamo 2.13 cannot step
# ("Missing tp_iternext", measured): a `zip` or an `enumerate` object, whatever they wrap.
_STEPLESS_BUILTINS = frozenset({"zip", "enumerate"})


@dataclass(frozen=True, slots=True)
class _Candidate:
    node: Comprehension
    touches: str  # what makes Dynamo compile its frame: a tensor it reads, or a torch module
    certain: bool  # the iterable is certainly one Dynamo cannot step, and `touches` no guess
    conditional: bool  # under an `if` on a trace-time value


class ComprehensionInEmptyFrame(Rule):
    code = "BL523"
    name = "comprehension-in-empty-frame"
    severity = Severity.ERROR
    breaks_graph = False  # the frame around it runs eagerly without a report; this is its skip
    finishes_last = True  # after BL203 and BL205, which report some of the same comprehensions
    # A list, set or dict comprehension is written with `for`.
    words = frozenset({"for"})
    message = (
        "`{function}` traces no tensor operation {where}, so Dynamo skips that frame without "
        "a report and runs it eagerly; this comprehension is a frame of its own that reads "
        "`{touches}`: Dynamo compiles it alone, cannot step the iterator it is given, and "
        "skips it too"
    )
    hint = (
        "iterate a tuple (`tuple(...)`), whose iterator Dynamo steps, or keep the tensor work "
        "in the compiled function so that its frame has a graph"
    )
    fix_safety = """
No automatic fix: the comprehension is skipped because the frame around it traces nothing, and
that frame runs without a graph whatever is done to the comprehension. Iterating `tuple(...)`
(BL205's fix) makes the comprehension itself compile; whether that copy is worth it, or the
tensor work belongs in the compiled function instead, only the author can weigh.
"""
    what = """
Flags a list, set or dict comprehension in a frame that Dynamo compiles on its own and that
traces no tensor operation: a compile root, the rest of a function after a graph break in its
own code (outside loops), a function that a frame a break skips calls (BL202, BL204), a
function that such a rest calls where the rest and what it calls trace no op (and, in turn,
what that function calls), or an `__init__` or metaclass `__call__` that compiled code runs
eagerly (BL211, BL518), when the
comprehension reads a tensor of the function, a container of tensors, the module itself
(`self` in a method of an `nn.Module` class) or a torch module, and its first iterable is one
Dynamo cannot step when it is given it: a list or a dict (`sorted()`, `list()`, `.keys()`,
`.items()`, a name of unknown type), a `zip` or an `enumerate`. A frame traces no operation
when none of its code from its start (or from the break) to its end is a torch call, a tensor
method, arithmetic, indexing or a comparison on a tensor (or on a value only taken for one, a
compile root's parameter), or a call of anything else than the builtins, the list, dict and
string methods and the standard library's containers that make no op (`len`, `isinstance`,
`sorted`, `dict.get`, `list.append`, `OrderedDict(...)`): any other call may make one, and
then nothing is flagged; nor where a break follows the comprehension. An operation in the
comprehension's element that runs only under a condition (`torch.zeros_like(q) if p is None
else p`) makes it a warning, as does a tensor, an iterable, a break or a caller's skip that is
only maybe one, or a configuration's `if`. Only with Python before 3.12, whose comprehensions
are frames of their own (PEP 709 inlines them from 3.12 on). A frame that a break skips is
BL205's; a comprehension after a break that yields a tensor as it is, BL203's.
"""
    why = """
Dynamo compiles a frame to a graph of the tensor operations it traces. A frame it compiles on
its own (the function `torch.compile` wraps, the rest of a function after a graph break) that
reaches its end with no operation traced has no graph: Dynamo skips it silently ("No ops
traced for the FX graph") and runs it eagerly, and every frame it creates is offered to Dynamo
again. Before Python 3.12 a comprehension is such a frame, which Dynamo compiles when it reads
a tensor, a container of tensors, a module or a torch module (`has_tensor_in_frame`); its only
argument is the iterator of its first iterable, which Dynamo cannot step for a list, a dict or
its views, a `zip` or an `enumerate` ("Missing tp_iternext", GB4347): it skips that frame too
(measured with torch 2.13 and Python 3.11). One tensor operation anywhere in the enclosing
frame gives it a graph, and the comprehension is traced inside it.
"""
    example = """
import torch


def pick(parts: list[torch.Tensor], order: list[int]) -> list[torch.Tensor]:
    return [parts[i] for i in sorted(order)]


compiled = torch.compile(pick)
"""
    use_instead = """
import torch


def pick(parts: list[torch.Tensor], order: list[int]) -> torch.Tensor:
    return torch.stack([parts[i] for i in sorted(order)])


compiled = torch.compile(pick)
"""
    probe = "(pick, ([torch.randn(3), torch.randn(3)], [1, 0]))"
    gb_ids = ("GB4347",)

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        facts = context.facts
        # Whether the function's own frame is compiled on its own from its start, and whether
        # certainly: a compile root, a function a skipped frame calls, or a constructor or
        # metaclass `__call__` run eagerly.
        self._alone = facts.root
        self._alone_certain = facts.root
        self._eager_why = ""
        if not facts.root and facts.eager_frame:
            certainty, _, self._eager_why = facts.eager_frame.partition(" ")
            self._alone, self._alone_certain = True, certainty == "certain"
        elif not facts.root and (facts.eager_init or facts.eager_call):
            certain, _, why = eager_making(facts.eager_init or facts.eager_call)
            self._alone, self._alone_certain, self._eager_why = True, certain, why
        self._candidates: list[_Candidate] = []
        self._in_frame: set[int] = set()  # ids of reports made in the function's own frame
        # The operations of the function's own code (on a value only guessed to be a tensor
        # too: a compile root's parameter); a break may be reported once the walk is over.
        self._operations: list[ast.AST] = []
        self._nested = 0  # comprehensions and generator expressions open around the walk

    def observe(self, report: Report) -> None:
        facts = self.context.facts
        if facts.in_outer_function and not facts.loops:
            self._in_frame.add(id(report))

    def _operation(self, node: ast.AST, value: ast.expr) -> None:
        """Note `node` as an operation when `value` is a tensor."""
        facts = self.context.facts
        if facts.in_outer_function and facts.kind(value).is_tensor:
            self._operations.append(node)

    def visit_BinOp(self, node: ast.BinOp | ast.UnaryOp | ast.Compare) -> None:
        self._operation(node, node)

    visit_UnaryOp = visit_Compare = visit_BinOp

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._operation(node, node.value)  # indexing a tensor, not a list of them

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._operation(node, node)  # `x.T`, not `x.shape`

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._operation(node, node.target)

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        if not facts.in_outer_function:
            return
        func = node.func
        if facts.resolve(func) in _OP_FREE_CALLS:
            return
        if isinstance(func, ast.Name):
            if _builtin(facts, func) in _OP_FREE_BUILTINS:
                return
        elif (call := method_call(node)) is not None:
            receiver, method = call
            receiver_kind = facts.kind(receiver)
            if receiver_kind.is_tensor:
                if method in _TENSOR_METADATA_METHODS:
                    return
            elif (
                method in _OP_FREE_METHODS
                and dotted(func) not in facts.project_calls
                and not _imported(facts, receiver)  # `torch.split`: a module's function
            ):
                return
        self._operations.append(node)  # an unknown call may make one

    def visit_ListComp(self, node: Comprehension) -> None:
        nested = self._nested
        self._nested += 1
        facts = self.context.facts
        if nested or not facts.in_outer_function:
            return
        iterable = node.generators[0].iter
        certain = list_or_dict(facts, iterable)
        if isinstance(iterable, ast.Call) and _builtin(facts, iterable.func) in _STEPLESS_BUILTINS:
            certain = True
        if certain is None:
            return
        touches = comprehension_touches(self.context, node)
        if touches is not None:
            name, guess = touches
            candidate = _Candidate(node, name, certain and not guess, facts.conditional)
            self._candidates.append(candidate)

    visit_SetComp = visit_DictComp = visit_ListComp

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> None:
        self._nested += 1

    def leave_ListComp(self, node: ast.expr) -> None:
        self._nested -= 1

    leave_SetComp = leave_DictComp = leave_GeneratorExp = leave_ListComp

    def finish(self, reports: list[Report]) -> None:
        if not self._candidates:
            return
        rules = all_rules()
        if any(rules[report.code].skips_frame for report in reports):
            return  # the frame is skipped whole: BL205's
        told = {id(report.node) for report in reports if report.code in ("BL203", "BL205")}
        breaks = own_breaks(reports, self._in_frame)
        for candidate in self._candidates:
            node = candidate.node
            if id(node) in told:
                continue
            found = self._frame(node, breaks)
            if found is None:
                continue
            where, start, certain_frame = found
            maybe = self._no_operation(node, start, [r.node for r, _ in breaks])
            if maybe is None:
                continue
            sure = certain_frame and candidate.certain and not maybe and not candidate.conditional
            message = self.message.format(
                function=self.context.function, where=where, touches=candidate.touches
            )
            self.report(node, message, severity=None if sure else Severity.WARNING)

    def _frame(
        self, node: Comprehension, breaks: list[tuple[Report, Position]]
    ) -> tuple[str, Position, bool] | None:
        """The frame compiled on its own that runs `node`: how to tell it, where it starts,
        and whether it certainly is one; None where a break follows `node` or is in it (the
        frame then has a graph, or the comprehension is traced in a frame that breaks)."""
        start = node.lineno, node.col_offset
        iterable = node.generators[0].iter
        before: list[tuple[Report, Position]] = []
        for report, at in breaks:
            if at < start or contains(iterable, report.node):
                before.append((report, at))
            else:
                return None  # a break after it or inside it
        if before:
            last, (line, _) = max(before, key=lambda pair: pair[1])
            resumed = getattr(last.node, "end_lineno", None) or line
            resumed_at = resumed, getattr(last.node, "end_col_offset", None) or 0
            certain = severity_of(last) is Severity.ERROR
            return f"after the graph break on line {line}", resumed_at, certain
        if not self._alone:
            return None
        where = "as a frame compiled on its own (a compile root)"
        if self._eager_why:
            where = f"as a frame of its own, run eagerly ({self._eager_why})"
        return where, (0, 0), self._alone_certain

    def _no_operation(
        self, node: Comprehension, start: Position, breaking: list[ast.AST]
    ) -> bool | None:
        """Whether the frame from `start` on may trace an operation after all (True: only
        under a condition in the comprehension), or None where it may trace one elsewhere."""
        conditional = _conditional_parts(node)
        maybe = False
        for operation in self._operations:
            at = position(operation) if isinstance(operation, ast.expr | ast.stmt) else None
            if at is None or at < start:
                continue
            if any(contains(where, operation) for where in breaking):
                continue
            if not any(contains(part, operation) for part in conditional):
                return None
            maybe = True
        return maybe


def _conditional_parts(node: Comprehension) -> list[ast.AST]:
    """The parts of a comprehension that run only under a condition: the branches of an `if`
    expression, and the element where an `if` clause filters the items."""
    parts: list[ast.AST] = []
    if any(generator.ifs for generator in node.generators):
        parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for inner in iter_nodes(node):
        if isinstance(inner, ast.IfExp):
            parts += [inner.body, inner.orelse]
    return parts


def _builtin(facts: FunctionFacts, func: ast.expr) -> str | None:
    """The builtin `func` names (`len`), unless a local or an import of the file hides it."""
    if isinstance(func, ast.Name) and func.id not in facts.names and func.id not in facts.imports:
        return func.id
    return None


def _imported(facts: FunctionFacts, receiver: ast.expr) -> bool:
    """Whether `receiver` is a name an import binds (a module, or what it holds)."""
    while isinstance(receiver, ast.Attribute):
        receiver = receiver.value
    return (
        isinstance(receiver, ast.Name)
        and receiver.id in facts.imports
        and receiver.id not in facts.names
    )
