"""libcst rewrites shared by every rule, builders for the code fixes write, and the dispatch
from a fix to its rewrite.

Imported only by the fix engine and by rules' rewrite functions, which only it calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

import libcst as cst

from breaklint.findings import Fix

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
    statement = _whole_statement(node)
    return None if statement is None else guard(statement, fix.torch)


def _removed(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    return None if _whole_statement(node) is None else cst.RemovalSentinel.REMOVE


def guard(statement: cst.SimpleStatementLine, torch: str) -> cst.If:
    """`statement` inside `if not torch.compiler.is_compiling():`; comments above it stay
    above the `if`, a comment after it stays with it."""
    return cst.If(
        test=cst.parse_expression(f"not {torch}.compiler.is_compiling()"),
        body=cst.IndentedBlock(body=[statement.with_changes(leading_lines=[])]),
        leading_lines=statement.leading_lines,
    )


def torch_function(torch: str, name: str) -> cst.Attribute:
    """`torch.<name>` as the file spells torch."""
    return cst.Attribute(value=cst.Name(torch), attr=cst.Name(name))


def call(function: cst.BaseExpression, *arguments: cst.BaseExpression) -> cst.Call:
    return cst.Call(func=function, args=[cst.Arg(value=argument) for argument in arguments])


def method(value: cst.BaseExpression, name: str) -> cst.Call:
    """`value.<name>()`, parenthesised where the attribute would otherwise bind wrongly."""
    if not isinstance(value, cst.Name | cst.Attribute | cst.Call | cst.Subscript) and not (
        value.lpar
    ):
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(func=cst.Attribute(value=value, attr=cst.Name(name)))


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


# The rewrites any rule's fixes may name: `guard` and `remove` a whole statement.
SHARED: dict[str, Rewrite] = {"guard": _guarded, "remove": _removed}
