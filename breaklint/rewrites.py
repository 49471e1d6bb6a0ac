"""libcst rewrites shared by every rule, builders for the code fixes write, and the dispatch
from a fix to its rewrite.

Imported only by the fix engine and by rules' rewrite functions, which only it calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

import libcst as cst

from breaklint.findings import Fix
from breaklint.knowledge.curated import MODULE_GENERATOR_METHODS

# What a rule's libcst rewrite gives for a node: its replacement, or a statement's removal.
Rewritten: TypeAlias = cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]
# A rewrite: the node at a fix's target (the outermost libcst node there) and the fix, to the
# node's replacement, or None when the node does not have the shape the rule checked on `ast`
# (a bug the fix engine reports).
Rewrite: TypeAlias = Callable[[cst.CSTNode, Fix], Rewritten | None]


def rewritten(own: Mapping[str, Rewrite], node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """`node` rewritten by the rewrite `fix` names: one of the rule's `own`, or a shared one."""
    rewrite = own.get(fix.rewrite) or SHARED.get(fix.rewrite)
    return None if rewrite is None else rewrite(node, fix)


def _whole_statement(node: cst.CSTNode) -> cst.SimpleStatementLine | None:
    if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        return node
    return None


def _guarded(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    statement = node if isinstance(node, cst.If) else _whole_statement(node)
    return None if statement is None else guard(statement, fix.torch)


class _TensorReads(cst.CSTTransformer):
    """A check's test with its reads of a number from a tensor (`t.item()`, `float(t)`,
    `bool(t)`, as `fixes.number_reads` found them) replaced by the tensor; `int(t)` by
    `t.long()`, which truncates as `int()` does."""

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        function = updated.func
        if isinstance(function, cst.Attribute) and function.attr.value == "item":
            return function.value
        if isinstance(function, cst.Name) and function.value in ("float", "bool"):
            return updated.args[0].value
        if isinstance(function, cst.Name) and function.value == "int":  # truncated as before
            return method(updated.args[0].value, "long")
        return updated


def tensor_test(test: cst.BaseExpression) -> cst.BaseExpression:
    """A branch's test made of reads of numbers from tensors as the same test on the tensors,
    as `fixes.tensor_test` decided it: each read compared with a number is its tensor, each
    read taken for its truth its tensor compared with 0 (`bool(t)` -> `t != 0`)."""
    if isinstance(test, cst.UnaryOperation):
        return test.with_changes(expression=tensor_test(test.expression))
    if isinstance(test, cst.BooleanOperation):
        return test.with_changes(left=tensor_test(test.left), right=tensor_test(test.right))
    if isinstance(test, cst.Comparison):
        (target,) = test.comparisons
        return test.with_changes(
            left=_compared(test.left),
            comparisons=[target.with_changes(comparator=_compared(target.comparator))],
        )
    return _truth(test)


def _compared(side: cst.BaseExpression) -> cst.BaseExpression:
    """A side of a comparison in a test on tensors: a truth read (`bool(t)`) as a truth of the
    tensor, a number read as the tensor, anything else as it is."""
    if isinstance(side, cst.Call) and isinstance(side.func, cst.Name) and side.func.value == "bool":
        return _truth(side, compared=True)
    read = side.visit(_TensorReads())
    assert isinstance(read, cst.BaseExpression)
    return read


def _truth(test: cst.BaseExpression, compared: bool = False) -> cst.BaseExpression:
    """A read taken for its truth, as the tensor compared with 0 (a boolean tensor whatever
    the dtype): `bool(t)` -> `t != 0`, in parentheses inside a comparison."""
    read = test.visit(_TensorReads())
    assert isinstance(read, cst.BaseExpression)
    zero = cst.ComparisonTarget(cst.NotEqual(), cst.Integer("0"))
    lpar, rpar = list(test.lpar), list(test.rpar)
    if compared and not lpar:
        lpar, rpar = [cst.LeftParen()], [cst.RightParen()]
    return cst.Comparison(parenthesized(read), [zero], lpar=lpar, rpar=rpar)


class _FirstText(cst.CSTVisitor):
    """The first string a raised exception is made with: a literal's value, or an f-string
    with its fields as written."""

    def __init__(self) -> None:
        self.text: str | None = None

    def visit_SimpleString(self, node: cst.SimpleString) -> bool:
        if self.text is None and isinstance(node.evaluated_value, str):
            self.text = node.evaluated_value
        return False

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        if self.text is None:
            self.text = "".join(
                part.value
                if isinstance(part, cst.FormattedStringText)
                else cst.Module([]).code_for_node(part)
                for part in node.parts
            )
        return False


def _message_text(message: cst.BaseExpression) -> str:
    """The text an assertion in the graph reports for an exception or an `assert` message."""
    texts = _FirstText()
    message.visit(texts)
    return texts.text or cst.Module([]).code_for_node(message)


def _compiled_check(
    condition: cst.BaseExpression, message: str, eager: cst.If | cst.SimpleStatementLine, torch: str
) -> cst.If:
    """`if torch.compiler.is_compiling(): torch._assert_async(condition, "message")`, and
    `eager`, the check as written, for eager runs (an `elif` where it is an `if`)."""
    check = call(
        torch_function(torch, "_assert_async"),
        condition,
        cst.SimpleString(json.dumps(message, ensure_ascii=False)),
    )
    compiling = cst.Attribute(cst.Name(torch), cst.Name("compiler"))
    orelse: cst.If | cst.Else
    if isinstance(eager, cst.If):
        orelse = eager.with_changes(leading_lines=[])
    else:
        orelse = cst.Else(cst.IndentedBlock([eager.with_changes(leading_lines=[])]))
    return cst.If(
        test=call(cst.Attribute(compiling, cst.Name("is_compiling"))),
        body=cst.IndentedBlock([cst.SimpleStatementLine([cst.Expr(check)])]),
        orelse=orelse,
        leading_lines=eager.leading_lines,
    )


def _checked(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `check` fix: `if test: ...; raise E(...)` becomes `if torch.compiler.is_compiling():
    torch._assert_async(<not test>, "<E's message>")` and, in an `elif`, the check as it was.
    `check-any`: the test's operands may be Python values too (see `any_truth`)."""
    if not isinstance(node, cst.If) or not isinstance(node.body, cst.IndentedBlock):
        return None
    (raised,) = node.body.body[-1].body  # type: ignore[attr-defined]
    if not isinstance(raised, cst.Raise) or raised.exc is None:
        return None
    test = node.test.visit(_TensorReads())
    assert isinstance(test, cst.BaseExpression)
    if fix.rewrite == "check-any":
        negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        condition = (
            any_truth(test.expression, fix.torch)  # type: ignore[attr-defined]
            if negated
            else call(torch_function(fix.torch, "logical_not"), any_truth(test, fix.torch))
        )
    else:
        condition = negated_condition(test, fix.torch)
    return _compiled_check(condition, _message_text(raised.exc), node, fix.torch)


def _asserted(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `assert-check` fix: `assert test, message` becomes `if
    torch.compiler.is_compiling(): torch._assert_async(<test>, "<message>")` and, under
    `else:`, the `assert` as it was."""
    statement = _whole_statement(node)
    if statement is None or not isinstance(statement.body[0], cst.Assert):
        return None
    asserted = statement.body[0]
    message = "assertion failed" if asserted.msg is None else _message_text(asserted.msg)
    return _compiled_check(any_truth(asserted.test, fix.torch), message, statement, fix.torch)


def _asserted_reads(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `assert-reads` fix: `assert test, message` whose test reads numbers from tensors
    (`assert t.item() > 0`) becomes `if torch.compiler.is_compiling():
    torch._assert_async(<the test on the tensors>, "<message>")` and, under `else:`, the
    `assert` as it was."""
    statement = _whole_statement(node)
    if statement is None or not isinstance(statement.body[0], cst.Assert):
        return None
    asserted = statement.body[0]
    message = "assertion failed" if asserted.msg is None else _message_text(asserted.msg)
    condition = graph_condition(tensor_test(asserted.test), fix.torch)
    return _compiled_check(condition, message, statement, fix.torch)


def _removed(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    return None if _whole_statement(node) is None else cst.RemovalSentinel.REMOVE


def guard(statement: cst.SimpleStatementLine | cst.If, torch: str) -> cst.If:
    """`statement` (a line, or an `if` with its blocks) inside `if not
    torch.compiler.is_compiling():`; comments above it stay above the `if`, a comment after it
    stays with it."""
    if isinstance(statement, cst.If):
        statement = without_guards(statement, torch)
    return cst.If(
        test=_not_compiling(torch),
        body=cst.IndentedBlock(body=[statement.with_changes(leading_lines=[])]),
        leading_lines=statement.leading_lines,
    )


def _not_compiling(torch: str) -> cst.BaseExpression:
    return cst.parse_expression(f"not {torch}.compiler.is_compiling()")


def branch_comments(node: cst.If) -> list[cst.EmptyLine]:
    """The comments inside an `if` statement's blocks (its `else:` too, not the lines above
    it), each as a line of its own: what a fix that writes the `if` as one statement keeps
    above that statement."""

    class Comments(cst.CSTVisitor):
        def __init__(self) -> None:
            self.found: list[cst.Comment] = []

        def visit_Comment(self, node: cst.Comment) -> None:
            self.found.append(node)

    comments = Comments()
    node.body.visit(comments)
    if node.orelse is not None:
        node.orelse.visit(comments)
    return [cst.EmptyLine(comment=comment) for comment in comments.found]


def without_guards(node: cst.If, torch: str) -> cst.If:
    """`node` with the guards its blocks' own statements got from other fixes of the same run
    (`if not torch.compiler.is_compiling():`) taken away: `node` is run only eagerly now."""
    test = _not_compiling(torch)

    def unguarded(block: cst.BaseSuite) -> cst.BaseSuite:
        if not isinstance(block, cst.IndentedBlock):
            return block
        statements = [s for statement in block.body for s in _unguarded(statement, test)]
        return block.with_changes(body=statements)

    orelse = node.orelse
    if isinstance(orelse, cst.Else):
        orelse = orelse.with_changes(body=unguarded(orelse.body))
    elif isinstance(orelse, cst.If):
        orelse = without_guards(orelse, torch)
    return node.with_changes(body=unguarded(node.body), orelse=orelse)


def _unguarded(statement: cst.BaseStatement, test: cst.BaseExpression) -> list[cst.BaseStatement]:
    """The statements of `statement` where it is only a guard by `test`; else itself."""
    if not isinstance(statement, cst.If):
        return [statement]
    guarded = (
        statement.orelse is None
        and statement.test.deep_equals(test)
        and isinstance(statement.body, cst.IndentedBlock)
    )
    if not guarded:
        return [statement]
    assert isinstance(statement.body, cst.IndentedBlock)
    first: Any  # every statement node has leading_lines
    first, *rest = statement.body.body
    lines = [*statement.leading_lines, *first.leading_lines]
    return [first.with_changes(leading_lines=lines), *rest]


def torch_function(torch: str, name: str) -> cst.Attribute:
    """`torch.<name>` as the file spells torch."""
    return cst.Attribute(value=cst.Name(torch), attr=cst.Name(name))


def call(function: cst.BaseExpression, *arguments: cst.BaseExpression) -> cst.Call:
    return cst.Call(func=function, args=[cst.Arg(value=argument) for argument in arguments])


def method(value: cst.BaseExpression, name: str) -> cst.Call:
    """`value.<name>()`, parenthesised where the attribute would otherwise bind wrongly."""
    return cst.Call(func=cst.Attribute(value=parenthesized(value), attr=cst.Name(name)))


def parenthesized(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` in parentheses where an attribute of it would otherwise bind wrongly (`a + b`)."""
    if isinstance(value, cst.Name | cst.Attribute | cst.Call | cst.Subscript) or value.lpar:
        return value
    return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def graph_condition(
    test: cst.BaseExpression,
    torch: str,
    operand: Callable[[cst.BaseExpression], cst.BaseExpression] | None = None,
) -> cst.BaseExpression:
    """A condition with its `not`, `and` and `or` (which call `bool()` on a tensor) made
    tensor operations: `torch.logical_not`, `torch.logical_and`, `torch.logical_or`; each
    operand they combine rewritten by `operand`, where given."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = graph_condition(test.expression, torch, operand)
        return call(torch_function(torch, "logical_not"), inner)
    if isinstance(test, cst.BooleanOperation):
        name = "logical_and" if isinstance(test.operator, cst.And) else "logical_or"
        left, right = (graph_condition(side, torch, operand) for side in (test.left, test.right))
        return call(torch_function(torch, name), left, right)
    return test if operand is None else operand(test)


def any_truth(test: cst.BaseExpression, torch: str) -> cst.BaseExpression:
    """The truth of `test` as a boolean tensor, whether its operands are tensors or Python
    values (a parameter may hold either): `not`, `and` and `or` become `torch.logical_*`, a
    chained comparison `a < b < c` one `torch.logical_and` of its pairs (each operand but the
    first and last is read twice: the fix that asks for it checks they are names), and each
    other operand is made a tensor by `torch.as_tensor`."""

    def as_tensor(value: cst.BaseExpression) -> cst.BaseExpression:
        return call(torch_function(torch, "as_tensor"), value)

    def truth(operand: cst.BaseExpression) -> cst.BaseExpression:
        if not isinstance(operand, cst.Comparison) or len(operand.comparisons) == 1:
            return as_tensor(operand)
        pairs: list[cst.BaseExpression] = []
        left = operand.left
        for target in operand.comparisons:
            pairs.append(cst.Comparison(left=left, comparisons=[target]))
            left = target.comparator
        result = as_tensor(pairs[0])
        for pair in pairs[1:]:
            result = call(torch_function(torch, "logical_and"), result, as_tensor(pair))
        return result

    return graph_condition(test, torch, truth)


def negated_condition(test: cst.BaseExpression, torch: str) -> cst.BaseExpression:
    """`not test` as a tensor operation; `test`'s own operand where it is a `not`."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return graph_condition(test.expression, torch)
    return call(torch_function(torch, "logical_not"), graph_condition(test, torch))


def keep_block_valid(original: cst.CSTNode, updated: cst.CSTNode, removed: set[int]) -> cst.CSTNode:
    """A block some of whose statements (`removed`, by the original node's id) fixes took
    out: comment lines above a removed statement move to the next statement that stays (or
    below the block), and an emptied block gets `pass`."""
    if not isinstance(original, cst.IndentedBlock | cst.Module) or not isinstance(
        updated, cst.IndentedBlock | cst.Module
    ):
        return updated
    if not any(id(statement) in removed for statement in original.body):
        return updated
    survivors = iter(updated.body)  # one per statement not removed, in order
    orphans: list[cst.EmptyLine] = []
    body: list[cst.BaseStatement] = []
    statement: Any
    for statement in original.body:
        if id(statement) in removed:
            orphans.extend(line for line in statement.leading_lines if line.comment)
            continue
        kept: Any = next(survivors)  # every statement node has leading_lines
        if orphans:
            kept = kept.with_changes(leading_lines=[*orphans, *kept.leading_lines])
            orphans = []
        body.append(kept)
    if not body and isinstance(updated, cst.IndentedBlock):
        body.append(cst.SimpleStatementLine(body=[cst.Pass()], leading_lines=orphans))
        orphans = []
    return updated.with_changes(body=body, footer=[*orphans, *updated.footer])


def _listed(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `listed` fix: each generator the call is given becomes a list (a generator
    expression a list comprehension, `self.parameters()` `list(self.parameters())`)."""
    if not isinstance(node, cst.Call):
        return None
    arguments = []
    for argument in node.args:
        value = argument.value
        if isinstance(value, cst.GeneratorExp):
            value = cst.ListComp(value.elt, value.for_in)
        elif (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in MODULE_GENERATOR_METHODS
        ):
            value = cst.Call(cst.Name("list"), [cst.Arg(value)])
        arguments.append(argument.with_changes(value=value))
    return node.with_changes(args=arguments)


def _nullcontext(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `nullcontext` fix: `Lock()` becomes `contextlib.nullcontext() if
    torch.compiler.is_compiling() else Lock()`."""
    if not isinstance(node, cst.Call):
        return None
    return cst.IfExp(
        test=cst.parse_expression(f"{fix.torch}.compiler.is_compiling()"),
        body=cst.parse_expression("contextlib.nullcontext()"),
        orelse=node.with_changes(lpar=[], rpar=[]),
        lpar=node.lpar,
        rpar=node.rpar,
    )


# The rewrites any rule's fixes may name: `guard` and `remove` a whole statement, `check` a
# raising `if` (`check-any` where its operands may be Python values), `assert-check` an
# `assert`, `listed` a call given generators (BL206, BL210), `nullcontext` a context manager
# entered only when not compiling (BL207, BL501).
SHARED: dict[str, Rewrite] = {
    "guard": _guarded,
    "remove": _removed,
    "check": _checked,
    "check-any": _checked,
    "assert-check": _asserted,
    "assert-reads": _asserted_reads,
    "listed": _listed,
    "nullcontext": _nullcontext,
}
