"""Reading source files as Python does."""

from __future__ import annotations

import functools
import io
import os
import re
import tokenize
from dataclasses import dataclass

_LINE = re.compile(r"(?<=\n)")


def source_lines(text: str) -> list[str]:
    """Lines as Python numbers them (form feeds and other separators do not split)."""
    return _LINE.split(text)


def char_offset(line: str, byte_offset: int) -> int:
    """The character index in `line` of a UTF-8 byte offset, the unit `ast` counts columns in."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="replace"))


class LazyLines:
    """A file's `source_lines`, split on first use: most files have nothing to report."""

    def __init__(self, text: str) -> None:
        self.text = text

    @functools.cached_property
    def lines(self) -> list[str]:
        return source_lines(self.text)


def column(line: str, byte_offset: int) -> int:
    """The 1-based character column of a UTF-8 byte offset into `line`."""
    return char_offset(line, byte_offset) + 1


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Why a file's bytes are not Python text, and the line where that shows."""

    message: str
    line: int = 1


def decode_source(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a file's bytes as Python reads them (PEP 263, a BOM); encoding the
    text with that encoding gives the same bytes back. Raises SyntaxError, UnicodeDecodeError
    or LookupError for bytes Python could not read either."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding).removeprefix("\ufeff"), encoding


def read_source(path: str) -> str | Unreadable:
    """The decoded text of a file (PEP 263 aware), or why it cannot be had."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return Unreadable(f"cannot read file: {error.strerror or error}")
    try:
        return decode_source(data)[0]
    except SyntaxError as error:
        return Unreadable(f"cannot decode file: {error.msg}")
    except (UnicodeDecodeError, LookupError) as error:
        line = data[: getattr(error, "start", 0)].count(b"\n") + 1
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        encoding = getattr(error, "encoding", "the declared encoding")
        return Unreadable(
            f"cannot decode file as {encoding}: {reason} (declare its encoding, PEP 263)", line
        )


def display_path(path: str) -> str:
    """`path` relative to the working directory when it lies under it, as reports show it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
