"""Where a break happened: the frame of a break Dynamo logged that the user must edit (in the
linted files when it passes through them), and the evidence a finding carries about it."""

from __future__ import annotations

import linecache
import os
from functools import cache
from typing import Any

from breaklint.dynamic.bytecode import listing
from breaklint.dynamic.model import Break, ProbeRequest
from breaklint.findings import BreakKind, Evidence

_BREAKLINT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@cache
def _by_name(linted: frozenset[str]) -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for path in linted:
        named.setdefault(os.path.basename(path), []).append(path)
    return named


@cache
def _content(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


@cache
def linted_file(path: str, linted: frozenset[str]) -> str | None:
    """The linted file (real path) that `path` is, or is a byte-for-byte copy of: transformers
    runs a local folder's custom modeling code from a copy in its module cache."""
    real = os.path.realpath(path)
    if real in linted:
        return real
    copies = _by_name(linted).get(os.path.basename(real), [])
    return next(
        (c for c in copies if _content(real) is not None and _content(c) == _content(real)), None
    )


def attribute(raw: Any, request: ProbeRequest) -> Break | None:
    """A break Dynamo logged (`torch_shim`'s raw record), at the innermost frame in the linted
    files (else outside torch and the libraries), with its evidence; None without frames."""
    from breaklint.dynamic import torch_shim

    frames = raw.frames
    if not frames:
        return None
    linted = [f for f in frames if linted_file(f.path, request.watch.linted)]
    user = [f for f in frames if not torch_shim.is_library(f.path) and not _is_ours(f.path)]
    frame = (linted or user or frames)[-1]
    cause = raw.segments[0]
    # Traceback carets count from the first non-blank character of the line.
    source = linecache.getline(frame.path, frame.line).rstrip()
    indent = len(source) - len(source.lstrip())
    column = indent + (frame.column or 1)
    end_column = indent + frame.end_column if frame.end_column else len(source) + 1
    exact = frame.column is not None
    code = listing(frame.path, frame.line, frame.function, column if exact else None, end_column)
    skip_reason = raw.segments[-1] if raw.skipped and len(raw.segments) > 1 else None
    evidence = Evidence(
        kind=BreakKind.FRAME_SKIPPED if raw.skipped else BreakKind.GRAPH_BREAK,
        function=code.function,
        gb_id=cause.gb_id,
        gb_type=cause.gb_type,
        explanation=cause.explanation
        + (f" Then: {skip_reason.gb_type} ({skip_reason.gb_id})." if skip_reason else ""),
        hints=cause.hints,
        reason=raw.reason,
        gb_url=cause.url,
        probe=request.probe.key,
        bytecode=code.text,
        instruction=code.instruction,
        stack=tuple(f"{f.path}:{f.line} in {f.function}" for f in user),
        dynamo_line=frame.dynamo_line,
        later_call=raw.later_call,
    )
    return Break(
        linted_file(frame.path, request.watch.linted) or os.path.realpath(frame.path),
        frame.line,
        column,
        max(end_column, column),
        evidence,
    )


def _is_ours(path: str) -> bool:
    """breaklint's and the interpreter's frames below the probe."""
    return path.startswith((_BREAKLINT_DIR, "<"))
