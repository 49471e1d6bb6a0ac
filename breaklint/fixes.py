"""Offering fixes while linting: what a rule checks on `ast` before it promises a fix.

Nothing here imports libcst: a rule decides here, in the lint path, whether its rewrite will
apply, and `breaklint.fixer` makes the rewrite only when edits are needed. What is decided
here must be exactly what the rewrite can do: a fix shown in a report is a fix `--fix` makes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from breaklint.findings import Applicability, Fix, Range
from breaklint.rule import RuleContext
from breaklint.source import char_offset

GUARD = "if not {torch}.compiler.is_compiling():"


@dataclass(frozen=True, slots=True)
class TorchName:
    """How rewritten code in a file reaches torch."""

    name: str  # `torch`, or the file's alias (`th`)
    imported: bool  # False: the fix adds `import torch`


def torch_name(context: RuleContext) -> TorchName | None:
    """The name a fix can write torch by: the file's alias, or `torch` itself imported by the
    fix; None when `torch` means something else here."""
    alias = context.facts.alias_of("torch")
    if alias is not None:
        return TorchName(alias, imported=True)
    bound = context.imports.get("torch")
    if bound is not None or "torch" in context.facts.names:
        return None
    return TorchName("torch", imported=False)


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
) -> Fix | None:
    """A fix rewriting `node` with the rule's `rewrite`, of the applicability the rule
    declares; None when it needs torch by a name the file cannot give it."""
    if applicability is None:
        raise TypeError("a rule that offers a fix declares its fix_applicability")
    torch = torch_name(context) if needs_torch else TorchName("torch", imported=True)
    if torch is None:
        return None
    return Fix(
        message.format(torch=torch.name),
        applicability,
        rewrite,
        target_of(context, node),
        torch=torch.name,
        adds_torch_import=not torch.imported,
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
    its own lines."""
    statement = context.facts.statement_of(call)
    if statement is None or not owns_its_lines(context, statement):
        return None
    message = f"run it only when not compiling: `{GUARD}`"
    return offer(context, statement, message, "guard", applicability, needs_torch=True)


def removal_fix(
    context: RuleContext, call: ast.Call, message: str, applicability: Applicability | None
) -> Fix | None:
    """Delete a statement that is only this call (a breakpoint, an explicit graph break)."""
    statement = context.facts.statement_of(call)
    if statement is None or not owns_its_lines(context, statement):
        return None
    return offer(context, statement, message, "remove", applicability)


def tensor_operands(context: RuleContext, node: ast.BinOp | ast.Compare) -> list[ast.expr]:
    """The operands of arithmetic or of a single comparison whose other operand is a tensor:
    there a tensor does what a Python number did."""
    if isinstance(node, ast.BinOp):
        pairs = [(node.left, node.right), (node.right, node.left)]
    elif len(node.comparators) == 1:
        pairs = [(node.left, node.comparators[0]), (node.comparators[0], node.left)]
    else:
        return []
    kind = context.facts.kind
    return [operand for operand, other in pairs if kind(other).is_tensor]
