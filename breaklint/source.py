"""Reading source files as Python does, and the findings for files that cannot be checked."""

from __future__ import annotations

import dataclasses
import functools
import io
import re
import tokenize

from breaklint.findings import Finding

PARSE_ERROR = "BL001"
INTERNAL_ERROR = "BL002"
INTERNAL_ERROR_MESSAGE = "breaklint failed on this code; the rest of the project was still checked"
TOO_DEEP = "{what} is nested too deeply to analyse; nothing in it was checked"
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


def file_problem(
    path: str, message: str, line: int = 1, column: int = 1, code: str = PARSE_ERROR
) -> Finding:
    from breaklint.rule import all_rules  # only when a file really has a problem

    rule = all_rules()[code]
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=message,
        path=path,
        line=line,
        column=column,
        end_line=line,
        end_column=column,
        url=rule.url(),
        hint=rule.hint,
    )


def internal_error(path: str, error: Exception, line: int) -> Finding:
    detail = f"{type(error).__name__}: {error}".splitlines()[0]
    finding = file_problem(path, "", line, code=INTERNAL_ERROR)
    return dataclasses.replace(finding, message=f"{INTERNAL_ERROR_MESSAGE} ({detail})")


def decode_source(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a file's bytes as Python reads them (PEP 263, a BOM); encoding the
    text with that encoding gives the same bytes back. Raises SyntaxError, UnicodeDecodeError
    or LookupError for bytes Python could not read either."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding).removeprefix("\ufeff"), encoding


def read_source(path: str) -> tuple[str | None, Finding | None]:
    """The decoded text of a file (PEP 263 aware), or the finding that explains why not."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return None, file_problem(path, f"cannot read file: {error.strerror or error}")
    try:
        return decode_source(data)[0], None
    except SyntaxError as error:
        return None, file_problem(path, f"cannot decode file: {error.msg}")
    except (UnicodeDecodeError, LookupError) as error:
        line = data[: getattr(error, "start", 0)].count(b"\n") + 1
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        encoding = getattr(error, "encoding", "the declared encoding")
        return None, file_problem(
            path,
            f"cannot decode file as {encoding}: {reason} (declare its encoding, PEP 263)",
            line,
        )
