"""Fixes that rules offer: text edits computed from `ast` positions and the file's own lines.

Plain data (`Fix`, `Edit`) computed in the worker that checks the file; `breaklint.fixer`
applies them when asked to.
"""

from __future__ import annotations

import ast
import io
import tokenize

from breaklint.findings import Edit, Fix
from breaklint.rule import RuleContext
from breaklint.source import char_offset

UNSAFE = "unsafe"
GUARD = "if not {torch}.compiler.is_compiling():"
# Tokens whose text may run over several lines: a newline inside one is part of a string.
_STRING_TOKENS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def guard_fix(context: RuleContext, call: ast.Call) -> Fix | None:
    """Run a side-effect statement only when Dynamo is not tracing: eager runs keep it,
    compiled runs lose it (hence unsafe). None when the call is not a whole statement on its
    own lines, or the file does not import torch under a name the guard can use."""
    statement = context.facts.statement_of(call)
    torch = context.facts.alias_of("torch")
    if statement is None or torch is None:
        return None
    guard = GUARD.format(torch=torch)
    edit = indent_under(statement, context.source.lines, guard)
    if edit is None:
        return None
    return Fix(f"run it only when not compiling: `{guard}`", UNSAFE, (edit,))


def indent_under(statement: ast.stmt, lines: list[str], header: str) -> Edit | None:
    """The edit that puts `statement` in a block opened by `header` (`if ...:`).

    Only for a statement that owns its lines (nothing before it, at most a comment after it)
    and holds no string running over several lines, whose text indenting would change.
    """
    first, last = statement.lineno, statement.end_lineno or statement.lineno
    head, tail = lines[first - 1], lines[last - 1]
    before = head[: char_offset(head, statement.col_offset)]
    after = tail[char_offset(tail, statement.end_col_offset or 0) :]
    if before.strip() or (after.strip() and not after.strip().startswith("#")):
        return None
    block = lines[first - 1 : last]
    if last > first and _has_multiline_string(block):
        return None
    indent = head[: len(head) - len(head.lstrip(" \t"))]
    unit = "\t" if "\t" in indent else "    "
    newline = "\r\n" if head.endswith("\r\n") else "\n"
    body = "".join(unit + line if line.strip() else line for line in block)
    tail_text = tail.rstrip("\r\n")
    body = body[: len(body) - (len(tail) - len(tail_text))]  # the last line's newline stays
    return Edit(first, 1, last, len(tail_text) + 1, f"{indent}{header}{newline}{body}")


def _has_multiline_string(block: list[str]) -> bool:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("".join(block)).readline))
    except (tokenize.TokenError, SyntaxError):
        return True  # not sure: no fix
    return any(t.type in _STRING_TOKENS and t.start[0] != t.end[0] for t in tokens)
