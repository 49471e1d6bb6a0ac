"""The `dis` listing around the instruction where Dynamo broke, from the source file itself."""

from __future__ import annotations

import dis
import re
import types
from dataclasses import dataclass
from functools import cache

_RESUME = re.compile(r"^torch_dynamo_resume_in_(?P<name>.+)_at_(?P<line>\d+)$")
_CONTEXT = 6  # instructions shown on each side of the marked one
# Several instructions share a span (`.item()` gives PRECALL then CALL): the last of these
# kinds is the one Dynamo could not trace.
_PREFERRED = ("CALL", "CALL_FUNCTION_EX", "STORE_ATTR", "POP_JUMP", "COMPARE_OP", "FOR_ITER")


@dataclass(frozen=True, slots=True)
class Listing:
    function: str
    instruction: str
    text: str


@cache
def _module_code(path: str) -> types.CodeType | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return compile(handle.read(), path, "exec")
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def _codes(code: types.CodeType, depth: int = 0) -> list[tuple[int, types.CodeType]]:
    found = [(depth, code)]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found.extend(_codes(const, depth + 1))
    return found


def _on_line(code: types.CodeType, line: int) -> list[dis.Instruction]:
    return [i for i in dis.get_instructions(code) if i.positions and i.positions.lineno == line]


def _choose(
    instructions: list[dis.Instruction], column: int | None, end: int | None
) -> dis.Instruction:
    if column is not None:
        exact = [
            i for i in instructions
            if i.positions and (i.positions.col_offset, i.positions.end_col_offset)
            == (column - 1, (end or column) - 1)
        ]  # fmt: skip
        instructions = exact or instructions
    for kind in _PREFERRED:
        matching = [i for i in instructions if i.opname.startswith(kind)]
        if matching:
            return matching[-1]
    return instructions[-1]


def resumed_after(name: str) -> int | None:
    """The line of the graph break after which a function named `name` resumes, when it is
    one of the functions Dynamo writes to resume after a break."""
    match = _RESUME.match(name)
    return int(match["line"]) if match else None


def resumed_function(name: str) -> str | None:
    """The name of the function that a function named `name` resumes, when it is one of the
    functions Dynamo writes to resume after a break."""
    match = _RESUME.match(name)
    return match["name"] if match else None


def listing(path: str, line: int, function: str, column: int | None, end: int | None) -> Listing:
    """The innermost function holding `line` (named `function` when several do) and its
    instructions around the breaking one, marked with `-->`."""
    module = _module_code(path)
    if module is None:
        return Listing(function, "", "")
    name = resumed_function(function) or function
    candidates = [(depth, code) for depth, code in _codes(module) if _on_line(code, line)]
    named = [c for c in candidates if c[1].co_name == name]
    if not (named or candidates):
        return Listing(name, "", "")
    _, code = max(named or candidates, key=lambda pair: pair[0])
    chosen = _choose(_on_line(code, line), column, end)
    instructions = list(dis.get_instructions(code))
    index = next(n for n, i in enumerate(instructions) if i.offset == chosen.offset)
    rows = []
    for instruction in instructions[max(0, index - _CONTEXT) : index + _CONTEXT + 1]:
        marker = "-->" if instruction.offset == chosen.offset else "   "
        where = instruction.positions.lineno if instruction.positions else None
        rows.append(
            f"{marker} {where or '':>5} {instruction.offset:>5} "
            f"{instruction.opname:<24} {instruction.argrepr}".rstrip()
        )
    described = f"{chosen.opname} {chosen.argrepr}".strip() + f" at offset {chosen.offset}"
    return Listing(code.co_qualname, described, "\n".join(rows))
