"""Reading source files as Python does."""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import io
import os
import re
import stat
import sys
import tokenize
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import TypeVar, cast

T = TypeVar("T")

# Python's tokenizer ends a line at `\n`, `\r\n` or a lone `\r` (old Mac files, a stray `\r`);
# `str.splitlines` also splits at form feeds and Unicode separators, which Python does not.
_LINE = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")
_LINE_END = re.compile(rb"\r\n|\r|\n")
LINE_START = r"(?:^|(?<=[\r\n]))"  # for patterns that look at line starts, as `^` with MULTILINE


def source_lines(text: str) -> list[str]:
    """Lines as Python numbers them, each with its line ending."""
    if _OTHER_BREAKS.search(text):
        return _LINE.split(text)
    # Without the breaks only `str.splitlines` knows, it splits as Python does, and fast.
    lines = text.splitlines(keepends=True)
    if not lines or lines[-1].endswith(("\n", "\r")):
        lines.append("")  # as the pattern's split gives: the empty line after the last end
    return lines


# The line breaks of `str.splitlines` that Python's tokenizer does not end a line at.
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


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


# Larger files are not read: no source file or cache entry is this big, and reading one whole
# (a `.py` symlink to a huge file) would take the run's memory and time.
MAX_FILE_BYTES = 32 * 2**20


class NotRegular(OSError):
    """The path is not a regular file (a FIFO, a device, a folder) or is over the size bound:
    reading it could hang or never end."""


def read_regular(path: str | os.PathLike[str], *, follow: bool = True) -> bytes:
    """A regular file's bytes, read once through one descriptor; NotRegular for anything else
    (checked on the open descriptor: a FIFO swapped in after a check cannot block the read),
    OSError when it cannot be opened. `follow=False` refuses a symlink too."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"not a regular file ({kind_of(info.st_mode)})")
        if info.st_size > MAX_FILE_BYTES:
            raise NotRegular(f"larger than {MAX_FILE_BYTES // 2**20} MB")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # a file that grew since fstat stops here
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        raise NotRegular(f"larger than {MAX_FILE_BYTES // 2**20} MB")
    return data


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symlink"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def read_source(path: str) -> str | Unreadable:
    """The decoded text of a file (PEP 263 aware), or why it cannot be had."""
    try:
        data = read_regular(path)
    except OSError as error:
        return Unreadable(f"cannot read file: {error.strerror or error}")
    try:
        return decode_source(data)[0]
    except SyntaxError as error:
        return Unreadable(f"cannot decode file: {error.msg}")
    except (UnicodeDecodeError, LookupError) as error:
        line = len(_LINE_END.findall(data, 0, getattr(error, "start", 0))) + 1
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        encoding = getattr(error, "encoding", "the declared encoding")
        return Unreadable(
            f"cannot decode file as {encoding}: {reason} (declare its encoding, PEP 263)", line
        )


def parse_python(text: str, path: str) -> ast.Module:
    """The tree of a file that Python can run, or the SyntaxError, RecursionError or
    MemoryError that compiling it raises: BL001 exactly when `python file.py` would fail,
    which parsing alone does not tell (`break` outside a loop, nesting too deep to compile)."""
    tree = parse_tree(text, path)
    compile_tree(tree, text, path)
    return tree


def parse_tree(text: str, path: str) -> ast.Module:
    """The tree of a file that Python parses, or the error parsing it raises. A file that
    parses may still fail to compile: `compile_tree` tells (`breaklint.compile_stage` says
    when it must be asked)."""
    tree = _as_a_script(_parsed, text, path)
    assert isinstance(tree, ast.Module)
    return tree


def compile_tree(tree: ast.Module, text: str, path: str) -> None:
    """Raise the SyntaxError, RecursionError or MemoryError that compiling a parsed file's
    tree to bytecode raises, as `python file.py` would."""
    _as_a_script(_compiled, tree, text, path)


def stack_depth() -> int:
    """The frames on the stack of the function that calls this, its own included."""
    depth, frame = 0, cast(FrameType | None, sys._getframe(1))
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def _as_a_script(action: Callable[..., T], *args: object) -> T:
    """Run `action(*args, tree_limit)` with the recursion Python gives a script's compile."""
    # Python's parser and compiler count the frames they are called from against their depth
    # limits: give back all but one (the action's, as a script's own), so that a file parses
    # and compiles here as in a script, whatever the depth of the stack this runs on.
    depth = stack_depth()
    before = sys.getrecursionlimit()
    # The compiler's warnings about the user's code (`"\d"`, `1()`) are not breaklint's to
    # print, and must not become errors under `-W error`.
    with recursion_limit(before + depth), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return action(*args, before + depth + _TREE_MARGIN)


def _parsed(text: str, path: str, tree_limit: int) -> ast.AST:
    try:
        return compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError):
        compile(text, path, "exec", dont_inherit=True)  # raises when Python fails too
        # It compiles: building the tree's objects takes a few levels more than that.
        sys.setrecursionlimit(tree_limit)
        return compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)


def _compiled(tree: ast.Module, text: str, path: str, tree_limit: int) -> None:
    try:
        compile(tree, path, "exec", dont_inherit=True)
    except (RecursionError, MemoryError):
        # Compiling a tree (not text) stops at a third of the depth: ask the text.
        compile(text, path, "exec", dont_inherit=True)


_TREE_MARGIN = 20  # levels that building `ast` objects takes beyond compiling the same text


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Parsing and the analysis allocate hundreds of thousands of objects without cycles,
    which reference counting frees; the cyclic collector's passes over them cost about a
    tenth of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def display_path(path: str) -> str:
    """`path` relative to the working directory when it lies under it, as reports show it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


# Code that compiles is at most a few thousand levels deep (the compiler's own limit); the
# analysis recurses a few frames per level, in Python frames that take no C stack (3.11+).
_ANALYSIS_RECURSION_LIMIT = 50_000


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Room to recurse through any tree that compiles. Only around the analysis: `ast.parse`
    and `compile`, which recurse in C, scale their own limits with this one."""
    with recursion_limit(max(sys.getrecursionlimit(), _ANALYSIS_RECURSION_LIMIT)):
        yield


@contextlib.contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
