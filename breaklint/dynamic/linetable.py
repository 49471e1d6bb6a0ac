"""The source position of an instruction in a function Dynamo wrote to resume after a graph
break, as its source has it.

Dynamo 2.13 builds a resume function's location table (Python 3.11+) with one entry per 8 code
units, and gives every entry of a longer instruction the line step of the first
(`torch/_dynamo/bytecode_transformation.py`, `linetable_311_writer`). An instruction of more
than 8 code units that starts a new line (3.11's `LOAD_METHOD` of a method chain split over
lines, `).mul(`) so moves every later instruction down by that step: `dis`, tracebacks and
Dynamo's own graph-break messages then name a later line, at times one of another function.
CPython writes a step only into an instruction's first entry, so reading the table that way
gives the true lines of the resume function and the same lines for every other function.
"""

from __future__ import annotations

import dis
import types
from collections.abc import Iterator
from dataclasses import dataclass

_CODE_UNIT = 2  # bytes


@dataclass(frozen=True, slots=True)
class Position:
    line: int
    end_line: int
    column: int | None  # UTF-8 byte offsets, 0-based, as `co_positions` gives them
    end_column: int | None


def _varint(data: bytes, index: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[index]
        index += 1
        value |= (byte & 0x3F) << shift
        shift += 6
        if not byte & 0x40:
            return value, index


def _signed(data: bytes, index: int) -> tuple[int, int]:
    value, index = _varint(data, index)
    return (-(value >> 1) if value & 1 else value >> 1), index


def _entries(code: types.CodeType) -> Iterator[tuple[int, int, Position | None]]:
    """(code units, line step, position relative to line 0) per location table entry."""
    table = code.co_linetable
    index = 0
    while index < len(table):
        first = table[index]
        index += 1
        units = (first & 7) + 1
        form = (first >> 3) & 15
        if form == 15:  # no location
            yield units, 0, None
        elif form == 14:  # long form
            step, index = _signed(table, index)
            end_step, index = _varint(table, index)
            column, index = _varint(table, index)
            end_column, index = _varint(table, index)
            yield units, step, Position(0, end_step, column - 1, end_column - 1)
        elif form == 13:  # no columns
            step, index = _signed(table, index)
            yield units, step, Position(0, 0, None, None)
        elif form >= 10:  # one line form: the step is in the form
            yield units, form - 10, Position(0, 0, table[index], table[index + 1])
            index += 2
        else:  # short form: same line
            column = form * 8 + ((table[index] >> 4) & 7)
            yield units, 0, Position(0, 0, column, column + (table[index] & 15))
            index += 1


def source_position(code: types.CodeType, offset: int) -> Position | None:
    """The position of the instruction at byte `offset` of `code`, taking each line step only
    from the first entry of an instruction (None: it has no location, or there is no such
    instruction)."""
    starts = {instruction.offset for instruction in dis.get_instructions(code)}
    if offset not in starts:
        return None
    line = code.co_firstlineno
    at = 0  # byte offset of the entry
    for units, step, position in _entries(code):
        if at in starts:
            line += step
        if at <= offset < at + units * _CODE_UNIT:  # CPython merges equal locations
            if position is None:
                return None
            return Position(line, line + position.end_line, position.column, position.end_column)
        at += units * _CODE_UNIT
    return None
