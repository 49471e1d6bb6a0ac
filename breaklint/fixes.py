"""Offering fixes while linting: what a rule checks on `ast` before it promises a fix.

Nothing here imports libcst: a rule decides here, in the lint path, whether its rewrite will
apply, and `breaklint.fixer` makes the rewrite only when edits are needed. What is decided
here must be exactly what the rewrite can do: a fix shown in a report is a fix `--fix` makes.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from breaklint.findings import Applicability, Fix, Range, Severity
from breaklint.kinds import Kind
from breaklint.knowledge.curated import (
    CLAMPS,
    NON_TENSOR_MODULES,
    NUMBER_ARGUMENTS,
    NUMBER_BUILTINS,
)
from breaklint.rule import RuleContext
from breaklint.source import char_offset
from breaklint.syntax import dotted, excerpt, iter_nodes, nodes_in_walk_order

GUARD = "if not {torch}.compiler.is_compiling():"


@dataclass(frozen=True, slots=True)
class TorchName:
    """How rewritten code in a file reaches torch."""

    name: str  # `torch`, or the file's alias (`th`)
    imported: bool  # False: the fix adds `import torch`


def torch_name(context: RuleContext, node: ast.AST) -> TorchName | None:
    """The name a fix of `node` can write torch by: the file's alias, `torch` imported at the
    top or earlier in a block around `node`, or `torch` itself imported by the fix; None when
    `torch` means something else here."""
    alias = context.facts.alias_of("torch")
    if alias is not None and _imported_at_top(context, alias):
        return TorchName(alias, imported=True)
    if _imported_before(context, node):  # a lazy import in the function: `torch` is bound
        return TorchName("torch", imported=True)
    if alias is not None:
        return None
    bound = context.imports.get("torch")
    if bound == "torch" and _imported_at_top(context, "torch"):
        return TorchName("torch", imported=True)
    # Imported only under a condition or in a function (`if TYPE_CHECKING:`, a lazy import):
    # the name may be unbound where the fix runs, and importing it at the top would defeat
    # the lazy import.
    if bound is not None or "torch" in context.facts.names:
        return None
    return TorchName("torch", imported=False)


def _imported_before(context: RuleContext, node: ast.AST) -> bool:
    """Whether a plain `import torch` statement comes before `node` in its function, in the
    block that holds `node` or one around it: reading up from `node`, a line indented more
    deeply than the lines read so far is inside an earlier statement (an import there may
    not run), and the `def` of the function ends the search."""
    lines = context.source.lines
    first = node.lineno  # type: ignore[attr-defined]
    deepest = _indent(lines[first - 1])  # the import's block may be `node`'s or one around it
    for number in range(first - 1, 0, -1):
        line = lines[number - 1]
        code = line.strip()
        if not code or code.startswith("#"):
            continue
        indent = _indent(line)
        if indent > deepest:
            continue  # inside a statement of the block: what it binds may not run
        if indent < deepest and code.startswith(("def ", "async def ", "class ")):
            return False  # the function around `node` begins: its body is searched
        deepest = indent
        if code == "import torch" or code.startswith(("import torch #", "import torch;")):
            return True
    return False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _imported_at_top(context: RuleContext, name: str, module: str = "torch") -> bool:
    """Whether the module binds `module` as `name` with an `import` statement of its own at
    the top level (column 0: no condition, no function around it)."""
    spelled = f"import {module}" if name == module else f"import {module} as {name}"
    for line in context.source.lines:
        line = line.lstrip("\ufeff").rstrip()  # a byte-order mark, CRLF endings
        rest = line[len(spelled) :]
        if not line.startswith(spelled):
            continue
        if rest[:1] in ("", " ", ",", "#", ";"):
            return True
        if name == module and rest.startswith(".") and " as " not in rest:  # `import torch.nn`
            return True
    return False


def target_of(context: RuleContext, node: ast.AST) -> Range:
    """`node`'s position as a fix target, in findings' columns."""
    lines = context.source.lines
    line, end_line = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    column = char_offset(lines[line - 1], node.col_offset) + 1  # type: ignore[attr-defined]
    end = char_offset(lines[end_line - 1], node.end_col_offset or 0) + 1  # type: ignore[attr-defined]
    return Range(line, column, end_line, end)


def offer(
    context: RuleContext,
    node: ast.AST,
    message: str,
    rewrite: str,
    applicability: Applicability | None,
    *,
    needs_torch: bool = False,
    adds_imports: tuple[str, ...] = (),
) -> Fix | None:
    """A fix rewriting `node` with the rule's `rewrite`, of the applicability the rule
    declares; None when it needs torch by a name the file cannot give it. `adds_imports`:
    other modules it names that the file does not import (see `module_import`)."""
    if applicability is None:
        raise TypeError("a rule that offers a fix declares its fix_applicability")
    torch = torch_name(context, node) if needs_torch else TorchName("torch", imported=True)
    if torch is None:
        return None
    return Fix(
        message.format(torch=torch.name),
        applicability,
        rewrite,
        target_of(context, node),
        torch=torch.name,
        adds_torch_import=not torch.imported,
        adds_imports=adds_imports,
    )


def module_import(context: RuleContext, module: str) -> tuple[str, ...] | None:
    """What a fix whose code names `module` (`contextlib`) must import: nothing where the
    file has `import module` at the top, `(module,)` where the name is free, None where it
    means something else here (another import, a local, a lazy import)."""
    if context.imports.get(module) == module and _imported_at_top(context, module, module):
        return ()
    if module in context.imports or module in context.facts.names:
        return None
    return (module,)


def nullcontext_fix(
    context: RuleContext, manager: ast.Call, applicability: Applicability | None
) -> Fix | None:
    """Enter `contextlib.nullcontext()` instead of the context manager `manager` makes while
    compiling (the shared `nullcontext` rewrite); None where the file cannot name
    `contextlib` or torch."""
    imports = module_import(context, "contextlib")
    if imports is None:
        return None
    message = "enter `contextlib.nullcontext()` instead while compiling"
    return offer(
        context,
        manager,
        message,
        "nullcontext",
        applicability,
        needs_torch=True,
        adds_imports=imports,
    )


def owns_its_lines(context: RuleContext, statement: ast.stmt) -> bool:
    """Whether `statement` is alone on its lines (at most a comment after it) inside an
    indented block, so it can be wrapped, replaced or removed as whole lines."""
    lines = context.source.lines
    first, last = statement.lineno, statement.end_lineno or statement.lineno
    head, tail = lines[first - 1], lines[last - 1]
    before = head[: char_offset(head, statement.col_offset)]
    after = tail[char_offset(tail, statement.end_col_offset or 0) :].strip()
    return not before.strip() and (not after or after.startswith("#"))


def guard_fix(
    context: RuleContext, call: ast.Call, applicability: Applicability | None
) -> Fix | None:
    """Run a side-effect statement only when Dynamo is not tracing: eager runs keep it,
    compiled runs lose it (hence unsafe). Offered for a call that is a whole statement on
    its own lines, or the whole body of a one-line `if` (`if verbose: print(...)`), which
    is guarded whole."""
    statement: ast.stmt | None = context.facts.statement_of(call)
    if statement is not None and not owns_its_lines(context, statement):
        statement = _one_line_if(context, statement)
    if statement is None:
        return None
    message = f"run it only when not compiling: `{GUARD}`"
    return offer(context, statement, message, "guard", applicability, needs_torch=True)


def _one_line_if(context: RuleContext, statement: ast.stmt) -> ast.If | None:
    """The `if test: statement` that `statement` is the whole body of, written on one line
    of its own, without `else`, whose test calls nothing (so compiled code, which skips the
    whole `if`, skips no effect of the test either)."""
    for node in ast.walk(context.definition):
        if isinstance(node, ast.If) and len(node.body) == 1 and node.body[0] is statement:
            calls = (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)
            plain = not any(isinstance(n, calls) for n in ast.walk(node.test))
            one_line = node.lineno == statement.lineno == node.end_lineno
            if not node.orelse and plain and one_line and owns_its_lines(context, node):
                line = context.source.lines[node.lineno - 1].lstrip()
                return node if line.startswith("if") else None  # not an `elif`
            return None
    return None


def removal_fix(
    context: RuleContext, call: ast.Call, message: str, applicability: Applicability | None
) -> Fix | None:
    """Delete a statement that is only this call (a breakpoint, an explicit graph break)."""
    statement = context.facts.statement_of(call)
    if statement is None or not owns_its_lines(context, statement):
        return None
    return offer(context, statement, message, "remove", applicability)


# Calls that only tell the user something: a block of them does nothing the code later reads.
NOTICES = frozenset({"warnings.warn", "warnings.warn_explicit", "print"})
# The builtin warning categories, which a call that tells may pass beside its message.
_CATEGORIES = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Warning)
)


def only_notices(context: RuleContext, body: list[ast.stmt]) -> bool:
    """Whether every statement of `body` is a call that only tells (`tells`)."""
    return all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and tells(context, s.value)
        for s in body
    )


def tells(context: RuleContext, call: ast.Call) -> bool:
    """A call that only tells: `warnings.warn`, `print`, or a function (not a method: it may
    change its object) given only a message (`rank_warn(f"{x.dtype} overflows", UserWarning,
    stacklevel=2)`): text, with warning categories and constants beside it. Passed nothing the
    code computes but text, it can change no value the code reads later."""
    facts = context.facts
    if facts.resolve(call.func) in NOTICES:
        return True
    name = dotted(call.func)
    if name is None or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    head = name.partition(".")[0]
    if head in facts.names or ("." in name and head not in context.imports):
        return False
    arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
    return any(map(_text, call.args)) and all(
        _text(a) or _constant_or_category(a) for a in arguments
    )


def _text(node: ast.expr) -> bool:
    """A message: a string, an f-string, or strings joined by `+`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) and _text(node.right)
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _constant_or_category(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    return isinstance(node, ast.Name) and node.id in _CATEGORIES


CHECK_MESSAGE = (
    "check in the graph when compiling: `{torch}._assert_async(...)`, and as written otherwise"
)
ASSERT_MESSAGE = (
    "assert in the graph when compiling: `{torch}._assert_async(...)`, as written otherwise"
)
# Calls that read a number or a truth from a tensor and that a check can drop, keeping the
# tensor: the test's truth stays the same. `int()` truncates first: its tensor is `t.long()`,
# which truncates as it does.
_DROPPED_READS = frozenset({"float", "bool", "int"})


def raising_check(context: RuleContext, node: ast.If) -> bool:
    """`if test:` (not an `elif`, without `else`) whose body ends in a `raise` and has no other
    way out (`return`, `break`, `continue`, `yield`): a check that a failure makes raise."""
    body = node.body
    if node.orelse or not isinstance(body[-1], ast.Raise) or body[-1].exc is None:
        return False
    exits = (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Await)
    if any(isinstance(n, exits) for statement in body for n in ast.walk(statement)):
        return False
    line = context.source.lines[node.lineno - 1].lstrip()
    return line.startswith("if") and owns_its_lines(context, node)


def number_reads(context: RuleContext, test: ast.expr) -> list[ast.Call] | None:
    """The reads of a number from a tensor (`t.item()`, `float(t)`, `bool(t)`) a check's
    `test` is made of, with number constants, comparisons, `not`, `and` and `or`; None when it
    holds anything else. Without them, the same test on the tensors gives the same truth."""
    facts = context.facts
    if isinstance(test, ast.BoolOp):
        parts = [number_reads(context, value) for value in test.values]
        return None if None in parts else [read for part in parts for read in part or ()]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return number_reads(context, test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        sides = [test.left, test.comparators[0]]
        numbers = [s for s in sides if isinstance(s, ast.Constant) or _signed_number(s)]
        if not all(_signed_number(n) for n in numbers):
            return None
        # A name or attribute compared (`t.item() > self.limit`) compares with the tensor
        # as with the number: a Python number, or a one-element tensor.
        others = [s for s in sides if s not in numbers and not _plain_value(context, s)]
        reads = [number_reads(context, s) for s in others]
        return None if None in reads or not reads else [r for part in reads for r in part or ()]
    if not isinstance(test, ast.Call) or test.keywords:
        return None
    method = facts.tensor_method(test)
    if method is not None and method[1] == "item" and not test.args:
        return [test]
    function = test.func
    if not isinstance(function, ast.Name) or function.id not in _DROPPED_READS:
        return None
    if len(test.args) != 1 or function.id in facts.names:
        return None
    return [test] if facts.kind(test.args[0]).is_tensor else None


def _plain_value(context: RuleContext, node: ast.expr) -> bool:
    """A value read by name (`limit`, `self.limit`, `cfg.eps * 2`): names, attributes and
    numbers through arithmetic, none a collection of tensors."""
    leaves = _arithmetic_leaves(node)
    if not any(isinstance(leaf, ast.Name | ast.Attribute) for leaf in leaves):
        return False
    return all(
        _signed_number(leaf)
        or (dotted(leaf) is not None and context.facts.kind(leaf) is not Kind.TENSORS)
        for leaf in leaves
    )


def _signed_number(node: ast.expr) -> bool:
    """A number constant, signed or not (`0.5`, `-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def check_fix(
    context: RuleContext,
    node: ast.If,
    applicability: Applicability | None,
    rewrite: str = "check",
) -> Fix | None:
    """The `check` fix of a raising check on tensors: under Dynamo, `torch._assert_async` of
    the test's negation; otherwise the `if` as it is. `check-any` where the test's operands
    may also be Python values (each made a tensor)."""
    if not raising_check(context, node):
        return None
    return offer(context, node, CHECK_MESSAGE, rewrite, applicability, needs_torch=True)


def _check_fixes(
    context: RuleContext, node: ast.If, applicability: Applicability | None
) -> dict[int, Fix]:
    """A raising check whose test is made of reads of numbers from tensors (`if
    t.sum().item():`): its `check` fix, by the id of the first read, the one that carries it."""
    reads = number_reads(context, node.test)
    fix = check_fix(context, node, applicability) if reads else None
    return {id(reads[0]): fix} if reads and fix else {}


def _check_call_fixes(
    context: RuleContext, call: ast.Call, applicability: Applicability | None
) -> dict[int, Fix]:
    """A call that is a whole statement, of a function (not a method, which may change its
    object), with an argument that is a truth read from tensors (`check(t.all().item(),
    msg)`): a check whose answer nothing reads. Its `guard` fix (eager runs call it as
    written, compiled runs skip it), by the id of each read, the ones that carry it."""
    facts = context.facts
    name = dotted(call.func)
    if name is None or facts.statement_of(call) is None:
        return {}
    head = name.partition(".")[0]
    if head in facts.names or ("." in name and head not in context.imports):
        return {}
    if facts.resolve(call.func) in NOTICES:  # their own rules guard them
        return {}
    arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
    reads = [read for argument in arguments for read in number_reads(context, argument) or ()]
    fix = guard_fix(context, call, applicability) if reads else None
    return dict.fromkeys(map(id, reads), fix) if fix else {}


def tensor_test(test: ast.expr) -> ast.expr | None:
    """`test`, made of reads of numbers from tensors (as `number_reads` found them), as the
    same test on the tensors: a read compared with a number is its tensor (`t.item() > 0.5`
    -> `t > 0.5`), a read taken for its truth is its tensor compared with 0 (`bool(t)` -> `t
    != 0`, a boolean tensor whatever its dtype); None for a form it does not take (a read
    inside arithmetic). New nodes around the original operands: the caller keeps them alive
    while the rules read them (their ids key the facts' answers)."""
    if isinstance(test, ast.BoolOp):
        values = [tensor_test(value) for value in test.values]
        if any(value is None for value in values):
            return None
        return ast.copy_location(ast.BoolOp(test.op, values), test)  # type: ignore[arg-type]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        operand = tensor_test(test.operand)
        return None if operand is None else ast.copy_location(ast.UnaryOp(test.op, operand), test)
    if isinstance(test, ast.Compare):
        sides = [_read_tensor(side) for side in (test.left, *test.comparators)]
        if any(side is None for side in sides):
            return None
        left, *others = sides
        return ast.copy_location(ast.Compare(left, test.ops, others), test)  # type: ignore[arg-type]
    if not isinstance(test, ast.Call):
        return None
    return _read_tensor(test, truth=True)


def _read_tensor(node: ast.expr, truth: bool = False) -> ast.expr | None:
    """The tensor a read of a number gives (`t.item()`, `float(t)` -> `t`, `int(t)` ->
    `t.long()`; a truth, `bool(t)`
    or a read whose truth is taken (`truth`), -> `t != 0`); a number constant or a value read
    by name itself (`number_reads` decided which); None for any other call."""
    if not isinstance(node, ast.Call):
        plain = not any(isinstance(n, ast.Call | ast.Compare) for n in ast.walk(node))
        return node if plain else None
    if node.keywords:
        return None
    function = node.func
    if isinstance(function, ast.Attribute) and function.attr == "item" and not node.args:
        tensor = function.value
    elif isinstance(function, ast.Name) and function.id in _DROPPED_READS and len(node.args) == 1:
        tensor, truth = node.args[0], truth or function.id == "bool"
        if function.id == "int":  # it truncates, as `.long()` does
            long = ast.copy_location(ast.Attribute(tensor, "long", ast.Load()), node)
            tensor = ast.copy_location(ast.Call(long, [], []), node)
    else:
        return None
    if not truth:
        return tensor
    zero = ast.copy_location(ast.Constant(0), node)
    return ast.copy_location(ast.Compare(tensor, [ast.NotEq()], [zero]), node)


# Makes the fix of a branch on a test made of reads of numbers (`if t.item() > 0:`), given
# the branch and the same test on the tensors (`tensor_test`); from the rule of branches.
BranchFix: TypeAlias = Callable[[ast.If | ast.IfExp, ast.expr], Fix | None]


class CheckReads:
    """The reads of numbers from tensors that checks are made of, each with its check's fix:
    the test of a raising `if` (`check`) or a truth passed to a function whose answer
    nothing reads (`guard`). A rule passes its `If`, `IfExp` and `Call` nodes on, before their
    reads. With `branch_fix`, the test of any other `if` or conditional expression made of
    such reads gets the fix `branch_fix` gives it (`torch.where` on the tensors)."""

    def __init__(
        self,
        context: RuleContext,
        applicability: Applicability | None,
        branch_fix: BranchFix | None = None,
    ) -> None:
        self.context = context
        self.applicability = applicability
        self.branch_fix = branch_fix
        self.fixes: dict[int, Fix] = {}  # by the read's id
        self._tests: list[ast.expr] = []  # the tensor tests made: alive while the rules run

    def visit_If(self, node: ast.If) -> None:
        fixes = _check_fixes(self.context, node, self.applicability)
        if not fixes and not raising_check(self.context, node):
            fixes = self._branch_fixes(node)
        self.fixes.update(fixes)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.fixes.update(self._branch_fixes(node))

    def visit_Assert(self, node: ast.Assert) -> None:
        """`assert t.item() > 0, msg`: the `assert-reads` fix, as `check` for a raising `if`."""
        context = self.context
        reads = number_reads(context, node.test)
        if not reads or tensor_test(node.test) is None or not owns_its_lines(context, node):
            return
        lines = context.source.lines[node.lineno - 1 : node.end_lineno]
        if any("#" in line for line in lines[1:]):
            return  # a comment the rewritten statement would not keep in place
        fix = offer(
            self.context, node, ASSERT_MESSAGE, "assert-reads", self.applicability, needs_torch=True
        )
        if fix is not None:
            self.fixes[id(reads[0])] = fix

    def _branch_fixes(self, node: ast.If | ast.IfExp) -> dict[int, Fix]:
        if self.branch_fix is None:
            return {}
        reads = number_reads(self.context, node.test)
        test = tensor_test(node.test) if reads else None
        if not reads or test is None:
            return {}
        self._tests.append(test)
        fix = self.branch_fix(node, test)
        return {id(reads[0]): fix} if fix is not None else {}

    def visit_Call(self, node: ast.Call) -> None:
        self.fixes.update(_check_call_fixes(self.context, node, self.applicability))


def tensor_operands(context: RuleContext, node: ast.BinOp | ast.Compare) -> list[ast.expr]:
    """What arithmetic or a single comparison computes with, through nested arithmetic
    (`x * (1 / (s + eps))` -> `s`, `eps`), on the side opposite a tensor: there a tensor does
    what a Python number did. The callers gather the operands of every operation of a
    function: `context.operands_covered` holds the arithmetic whose every operand an enclosing
    operation already gave, where a nested operation can give nothing more, so a chain of n
    operations costs n, not n squared; each operation is read once, for all the rules."""
    known = context.operands.get(id(node))
    if known is None:
        known = context.operands[id(node)] = _tensor_operands(context, node)
    return known


def _tensor_operands(context: RuleContext, node: ast.BinOp | ast.Compare) -> list[ast.expr]:
    covered = context.operands_covered
    if id(node) in covered:
        return []
    if isinstance(node, ast.BinOp):
        pairs = [(node.left, node.right), (node.right, node.left)]
    elif len(node.comparators) == 1:
        pairs = [(node.left, node.comparators[0]), (node.comparators[0], node.left)]
    else:
        return []
    return [
        leaf
        for operand, other in pairs
        if tensor_valued(context, other)
        for leaf in _arithmetic_leaves(operand, covered)
    ]


def tensor_valued(context: RuleContext, node: ast.expr) -> bool:
    """Whether `node` is a tensor: by its kind, or as the call of a submodule the class
    creates from `torch.nn` (`self.proj(x)` after `self.proj = nn.Linear(...)`)."""
    if context.facts.kind(node).is_tensor:
        return True
    if isinstance(node, ast.BinOp):  # arithmetic with a tensor gives a tensor
        return tensor_valued(context, node.left) or tensor_valued(context, node.right)
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
        return tensor_valued(context, node.operand)
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    owner = node.func.value
    if not isinstance(owner, ast.Name) or owner.id != "self":
        return False
    modules = context.self_assignments.callees(node.func.attr)
    return bool(modules) and all(
        module.startswith("torch.nn.") and module not in NON_TENSOR_MODULES for module in modules
    )


def _arithmetic_leaves(node: ast.expr, covered: set[int] | None = None) -> list[ast.expr]:
    """What `node` computes with through arithmetic alone (`(s + 1e-6) * 2` -> `s`, `1e-6`,
    `2`): a tensor in the place of one makes the result a tensor and nothing else. The
    operations passed through are added to `covered`, and those already there skipped."""
    leaves: list[ast.expr] = []
    pending = [node]
    while pending:  # a loop, not recursion: chains of operations run thousands deep
        current = pending.pop()
        if covered is not None and id(current) in covered:
            continue
        if isinstance(current, ast.BinOp):
            pending += [current.right, current.left]  # the left one first, as written
        elif isinstance(current, ast.UnaryOp) and not isinstance(current.op, ast.Not):
            pending.append(current.operand)
        else:
            leaves.append(current)
            continue
        if covered is not None:
            covered.add(id(current))
    return leaves


_ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


# The last part of each name in `NUMBER_ARGUMENTS`: a call named otherwise is none of them.
_NUMBER_ARGUMENT_NAMES = frozenset(name.rpartition(".")[2] for name in NUMBER_ARGUMENTS)


def _why(name: str, use: str, where: ast.AST, origin: str, *, needs: bool = True) -> str:
    """The hint's reason: `name` (computed from `origin` where another) is `use` on a line;
    `needs`: a use that needs the number."""
    computed = "" if name == origin else f" (computed from `{origin}`)"
    line = getattr(where, "lineno", "?")
    why = f"no automatic fix: `{name}`{computed} is {use} on line {line}"
    return f"{why}, which needs the number" if needs else why


def _use_in_words(context: RuleContext, child: ast.AST, parent: ast.AST | None) -> str:
    """What `parent` does with `child` (a number, or arithmetic on it), in the words of a
    hint: why it needs a Python number."""
    if isinstance(parent, ast.Subscript | ast.Slice):
        return "an index or slice bound"
    if isinstance(parent, ast.Call) and child is not parent.func:
        name = context.facts.resolve(parent.func) or excerpt(parent.func, 32)
        if name == "range":
            return "a `range()` bound"
        return f"passed to `{name}()`"
    if isinstance(parent, ast.keyword):
        return "passed to a call"
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert | ast.BoolOp | ast.UnaryOp):
        return "the test of a Python `if`"
    if isinstance(parent, ast.Return):
        return "returned"
    if isinstance(parent, ast.Tuple | ast.List | ast.Set | ast.Dict):
        return "put in a container"
    if isinstance(parent, ast.FormattedValue):
        return "formatted into a string"
    if isinstance(parent, ast.Compare):
        return "compared with a Python value"
    if isinstance(parent, ast.Assign | ast.AugAssign | ast.AnnAssign):
        return "stored"
    return "used as a Python number"


def _only_assigns(branch: ast.If) -> bool:
    """Whether both ways of `branch` only assign (not an `elif`): a choice of values, which
    BL201 makes in the graph."""
    statements = [*branch.body, *branch.orelse]
    return all(isinstance(s, ast.Assign | ast.AugAssign | ast.AnnAssign) for s in statements)


def _tests_in(test: ast.expr) -> list[ast.Compare]:
    """The comparisons a branch's test is made of, through `not`, `and`, `or`."""
    found, pending = [], [test]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.BoolOp):
            pending += node.values
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            pending.append(node.operand)
        elif isinstance(node, ast.Compare):
            found.append(node)
    return found


def _chosen_leaves(node: ast.expr) -> list[ast.expr]:
    """What `node` computes with through arithmetic and the values of conditional expressions
    (`a.item() if c else b.item() * 2` -> both reads, `2`; not the tests)."""
    leaves, pending = [], [node]
    while pending:
        for leaf in _arithmetic_leaves(pending.pop()):
            if isinstance(leaf, ast.IfExp):
                pending += [leaf.orelse, leaf.body]
            else:
                leaves.append(leaf)
    return leaves


@dataclass(slots=True)
class NumberBinding:
    """`name = <number read from a tensor>`, and its uses so far."""

    reads: list[ast.Call]  # `t.item()`, `float(t)`: what the rule reports and the fix rewrites
    store: ast.Name
    severity: Severity | None  # as the rule would have reported it where it was read
    loads: list[ast.Name] = field(default_factory=list)
    rebound: bool = False
    # Names computed from this one through arithmetic alone (`half = scale / 2`), with no
    # reads of their own: each load that computes one stands for the uses of that name.
    derived: dict[int, NumberBinding] = field(default_factory=dict)  # by id of the load


class NumberUses:
    """Names bound to a Python number read from a tensor (`scale = x.mean().item()`), kept to
    decide once the function is read whether every use of the name would take the tensor as
    well: an operand of arithmetic or of a comparison with a tensor (`h / (scale + 1e-6)`),
    or an argument of a `print` (which its own fix guards). Then reading the number can be
    replaced by keeping the tensor, at the binding, and every use stays in the graph.

    A rule feeds it from its hooks (`visit_Assign`, `visit_BinOp`, `visit_Compare`,
    `visit_Call`) and reports the kept bindings from `finish`. The names' uses are read
    then, in one pass over the function, only where a number was bound: no hook on every
    name (a name is a third of a function's nodes)."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.bindings: dict[str, NumberBinding] = {}
        self.closed: list[NumberBinding] = []  # bindings their name was bound again after
        self._tensor_uses: set[int] = set()  # loads under arithmetic with a tensor
        self._direct: set[int] = set()  # see `takes_tensor`
        self._compared: dict[int, ast.Compare] = {}  # by id of a leaf: its test against a number
        self._moving: set[int] = set()  # ids of the tests of branches BL201 does not fix
        self._assignments: list[ast.Assign] = []  # the assignments being read
        # Each read kept by `bind`, by id: (read, the names it binds, severity).
        self._reads: dict[int, tuple[ast.Call, tuple[ast.Name, ...], Severity | None]] = {}

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assignments.append(node)

    def leave_Assign(self, node: ast.Assign) -> None:
        self._assignments.pop()

    def bind(self, read: ast.Call, severity: Severity | None) -> bool:
        """Keep `read` when `name = <value>` computes the value from it through arithmetic
        alone (`scale = d ** -0.5 / t.item()`), outside loops (a loop would read the name
        before the binding); False when the rule must report it now."""
        statement = self._statement()
        if statement is None:
            return False
        target = statement.targets[0]
        if not isinstance(target, ast.Name):
            return False
        if not any(leaf is read for leaf in _chosen_leaves(statement.value)):
            return False
        self._reads[id(read)] = (read, (target,), self._severity(severity))
        return True

    def bind_unpacked(self, read: ast.Call, severity: Severity | None) -> bool:
        """Keep `read` when `a, b = <read>` unpacks it into names (`x1, x2 = t.tolist()`),
        outside loops; False when the rule must report it now. The read is kept only where
        every name's uses take a tensor."""
        statement = self._statement()
        if statement is None or statement.value is not read:
            return False
        target = statement.targets[0]
        if not isinstance(target, ast.Tuple | ast.List):
            return False
        names = [element for element in target.elts if isinstance(element, ast.Name)]
        if len(names) != len(target.elts) or len({name.id for name in names}) != len(names):
            return False
        self._reads[id(read)] = (read, tuple(names), self._severity(severity))
        return True

    def _statement(self) -> ast.Assign | None:
        """The assignment of one target being read, where a number bound there can be kept."""
        facts = self.context.facts
        statement = self._assignments[-1] if self._assignments else None
        if facts.loops or facts.eager_only or statement is None or len(statement.targets) != 1:
            return None
        return statement

    def _severity(self, severity: Severity | None) -> Severity | None:
        return Severity.WARNING if self.context.facts.conditional and severity is None else severity

    def _bind(self, read: ast.Call, target: ast.Name, severity: Severity | None) -> None:
        binding = self.bindings.get(target.id)
        if binding is not None and binding.store is target:  # another read in the same value
            binding.reads.append(read)
            return
        self._close(target.id)
        self.bindings[target.id] = NumberBinding([read], target, severity)

    def _close(self, name: str) -> None:
        binding = self.bindings.pop(name, None)
        if binding is not None:
            binding.rebound = True
            self.closed.append(binding)

    def _use(self, node: ast.Name, derived: dict[int, ast.Name]) -> None:
        binding = self.bindings.get(node.id)
        if binding is None or node is binding.store:
            return
        if not isinstance(node.ctx, ast.Load):
            # bound again: which value a later use reads may depend on the path taken
            self._close(node.id)
            return
        binding.loads.append(node)
        target = derived.get(id(node))
        if target is not None:  # `half = scale / 2`: the uses of `half` decide this one
            computed = self.bindings.get(target.id)
            if computed is None or computed.store is not target:
                self._close(target.id)
                computed = self.bindings[target.id] = NumberBinding([], target, None)
            binding.derived[id(node)] = computed

    def visit_operation(self, node: ast.BinOp | ast.Compare) -> None:
        self._take(tensor_operands(self.context, node), direct=True)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            # `s > 0.9` gives a tensor as a number did: a branch on it then breaks where the
            # conversion did, unless BL201 fixes it in its turn, as it does an `if` that only
            # assigns (`_read_uses` leaves out the tests of the others: the break would move)
            if isinstance(node.ops[0], _ORDERINGS) and self._number(node.comparators[0]):
                self._compared.update((id(leaf), node) for leaf in _arithmetic_leaves(node.left))
            if isinstance(node.ops[0], _ORDERINGS) and self._number(node.left):
                leaves = _arithmetic_leaves(node.comparators[0])
                self._compared.update((id(leaf), node) for leaf in leaves)

    def takes_tensor(self, node: ast.expr) -> bool:
        """Whether a tensor gives what the number `node` gave where it is: an argument that
        takes a 0-d tensor for a number (`x.clamp(max=n)`), or of a builtin that gives a
        tensor from one (`max(n, 1)`) that is such an argument or an operand of arithmetic
        with a tensor."""
        return id(node) in self._direct

    def _take(self, leaves: list[ast.expr], *, direct: bool = False) -> None:
        """Where a tensor can stand for each of `leaves`: for them, and for the arguments of
        the builtins among them that give a tensor from one (`max(n, 1)`, `abs(n)`);
        `direct`: where the tensor gives what the number gave (see `takes_tensor`)."""
        pending = list(leaves)
        while pending:
            leaf = pending.pop()
            self._tensor_uses.add(id(leaf))
            if direct:
                self._direct.add(id(leaf))
            if isinstance(leaf, ast.Call) and self._number_builtin(leaf):
                for argument in leaf.args:
                    pending += _arithmetic_leaves(argument)

    def _number_builtin(self, call: ast.Call) -> bool:
        """`max(a, b, ...)`, `min(a, b, ...)` or `abs(a)` of the builtins, positional only."""
        function = call.func
        if not isinstance(function, ast.Name) or function.id not in NUMBER_BUILTINS:
            return False
        if call.keywords or function.id in self.context.facts.names:
            return False
        if any(isinstance(argument, ast.Starred) for argument in call.args):
            return False
        return len(call.args) == 1 if function.id == "abs" else len(call.args) >= 2

    def _number_arguments(self, call: ast.Call) -> list[ast.expr]:
        """The arguments of `call` that take a 0-d tensor for a number in the graph
        (`x.clamp(max=n)`, `torch.full(size, n)`, `torch.where(c, x, n)`)."""
        function = call.func
        last = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        if last not in _NUMBER_ARGUMENT_NAMES:
            return []
        facts = self.context.facts
        method = facts.tensor_method(call)
        if method is not None and facts.kind(method[0]).is_tensor:
            name = "." + method[1]
        else:
            name = facts.resolve(call.func) or ""
        taken = NUMBER_ARGUMENTS.get(name)
        if taken is None or any(isinstance(a, ast.Starred) for a in call.args):
            return []
        positions, keywords = taken
        arguments = [a for i, a in enumerate(call.args) if i in positions]
        arguments += [k.value for k in call.keywords if k.arg in keywords]
        if name in CLAMPS:  # a bound as a tensor only where it is the one given
            bounds = call.args[positions[0] :] + [k.value for k in call.keywords if k.arg]
            given = [b for b in bounds if not (isinstance(b, ast.Constant) and b.value is None)]
            if len(given) != 1:
                return []
        return arguments

    def _number(self, node: ast.expr) -> bool:
        """Whether `node` is plainly a Python number (computed from number literals)."""
        return all(
            isinstance(leaf, ast.Constant) and type(leaf.value) in (int, float)
            for leaf in _arithmetic_leaves(node)
        )

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        for argument in self._number_arguments(node):
            self._take(_arithmetic_leaves(argument), direct=True)
        printed = (
            isinstance(node.func, ast.Name)
            and node.func.id == "print"
            and "print" not in facts.names
            and facts.statement_of(node) is not None
        )
        if printed:
            for argument in node.args:
                self._tensor_uses.update(
                    id(n) for n in iter_nodes(argument) if isinstance(n, ast.Name)
                )

    def _read_uses(self) -> None:
        """The bindings and the uses of their names, in the order of the walk: each kept
        read binds its name where the walk met it (from the rule's `visit_Call`)."""
        if not self._reads:
            return
        derived: dict[int, ast.Name] = {}  # by id of a name: what `that = <arithmetic>` binds
        for node in nodes_in_walk_order(self.context.definition):
            if type(node) is ast.Name:
                self._use(node, derived)
            elif type(node) is ast.While or (type(node) is ast.If and not _only_assigns(node)):
                self._moving.update(map(id, _tests_in(node.test)))
            elif type(node) is ast.Assign:
                target = node.targets[0]
                if len(node.targets) == 1 and type(target) is ast.Name:
                    for leaf in _chosen_leaves(node.value):
                        if type(leaf) is ast.Name and leaf.id != target.id:
                            derived[id(leaf)] = target
            elif (kept := self._reads.get(id(node))) is not None:
                read, targets, severity = kept
                for target in targets:
                    self._bind(read, target, severity)

    def kept(self) -> list[tuple[NumberBinding, bool]]:
        """Every binding, and whether each use of its name takes a tensor as well; of the
        names one read is unpacked into, the first, where every one of them does."""
        self._read_uses()
        bindings = [b for b in (*self.closed, *self.bindings.values()) if b.reads]
        unpacked: dict[int, list[NumberBinding]] = {}  # by id of a read unpacked into names
        for binding in bindings:
            if len(self._reads[id(binding.reads[0])][1]) > 1:
                unpacked.setdefault(id(binding.reads[0]), []).append(binding)
        kept = []
        for binding in bindings:
            names = unpacked.get(id(binding.reads[0]), [binding])
            if binding is names[0]:
                kept.append((binding, all(map(self._takes_tensors, names))))
        return kept

    def why_not(self, binding: NumberBinding) -> str:
        """Why the read of `binding` keeps no tensor, in words: its name is bound again,
        never used, or the first use that needs the Python number and what that use is (`n`
        is an index or slice bound, a `range()` bound, passed to a call, the test of a
        Python `if`, returned, stored, formatted, Python arithmetic) and where. For a hint:
        read once, where no fix is offered, with one walk of the function for the parents."""
        name = binding.store.id
        pending, seen = [binding], set()
        blocking: ast.Name | None = None
        while pending and blocking is None:
            current = pending.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            if current.rebound:
                store = current.store
                return _why(store.id, "bound again after its binding", store, name, needs=False)
            for load in current.loads:
                if self._takes(load):
                    continue
                computed = current.derived.get(id(load))
                if computed is None:
                    blocking = load
                    break
                pending.append(computed)
        if blocking is None:
            return _why(name, "never used after its binding", binding.store, name, needs=False)
        if id(blocking) in self._compared:
            use = "compared in the test of a loop or of an `if` that does more than assign"
            return _why(blocking.id, use, blocking, name)
        parents: dict[int, ast.AST] = {}  # only here, where no fix is offered
        for node in nodes_in_walk_order(self.context.definition):
            for inner in ast.iter_child_nodes(node):
                parents[id(inner)] = node
        child: ast.AST = blocking
        parent = parents.get(id(child))
        while isinstance(parent, ast.BinOp | ast.UnaryOp | ast.IfExp) and not (
            isinstance(parent, ast.IfExp) and parent.test is child
        ):
            child, parent = parent, parents.get(id(parent))
        if isinstance(parent, ast.Tuple) and isinstance(parents.get(id(parent)), ast.Return):
            child, parent = parent, parents.get(id(parent))  # `return y, n`: returned
        return _why(blocking.id, _use_in_words(self.context, child, parent), blocking, name)

    def _takes(self, load: ast.Name) -> bool:
        """Whether a tensor can stand for `load`: where it is (see `visit_operation`), or
        compared with a number outside the test of a branch whose break would only move."""
        if id(load) in self._tensor_uses:
            return True
        compared = self._compared.get(id(load))
        return compared is not None and id(compared) not in self._moving

    def _takes_tensors(self, binding: NumberBinding) -> bool:
        """Whether every use of the name takes a tensor: each load is where a tensor can
        stand, or computes a name whose uses all do (the chain followed one binding deep at
        a time, each binding once)."""
        pending, seen = [binding], set()
        while pending:
            current = pending.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            if current.rebound or not current.loads:
                return False
            for load in current.loads:
                if self._takes(load):
                    continue
                computed = current.derived.get(id(load))
                if computed is None:
                    return False
                pending.append(computed)
        return True


class NumberUsesHooks:
    """The traversal hooks a rule that keeps `numbers` passes on to it, and its reports of
    the bindings once the function is read: with the fix where every use takes a tensor."""

    numbers: NumberUses

    if TYPE_CHECKING:  # the rule's own, found after this class in its bases

        def _message(self, node: ast.Call) -> str: ...
        def _fix(self, node: ast.Call) -> Fix | None: ...
        def _hint(self, node: ast.Call) -> str: ...
        def report(self, node: ast.AST, message: str | None = None, **options: Any) -> None: ...

    def finish(self, reports: list[Any]) -> None:
        for binding, fixable in self.numbers.kept():
            for read in binding.reads:
                message, severity = self._message(read), binding.severity
                if fixable:
                    self.report(read, message, severity=severity, fix=self._fix(read))
                else:
                    hint = f"{self.numbers.why_not(binding)}; {self._hint(read)}"
                    self.report(read, message, severity=severity, hint=hint)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.numbers.visit_Assign(node)

    def leave_Assign(self, node: ast.Assign) -> None:
        self.numbers.leave_Assign(node)
