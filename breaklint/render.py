"""The `full` format: each finding with its source line and a caret under the span (rich)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import IO

from rich.console import Console
from rich.text import Text

from breaklint.findings import Finding

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


@cache
def _lines(path: str) -> list[str]:
    from breaklint.engine import read_source, source_lines

    text, _ = read_source(path)
    return [line.rstrip("\r\n") for line in source_lines(text)] if text else []


def _finding_text(f: Finding) -> Text:
    text = Text()
    text.append(f"{f.path}:{f.line}:{f.column}: ", style="bold")
    text.append(f.code, style=_SEVERITY_STYLE[f.severity.value])
    text.append(f" [{f.severity.value}] ", style="dim")
    text.append(f"{f.message}\n")
    lines = _lines(f.path)
    if 0 < f.line <= len(lines):
        source = lines[f.line - 1].expandtabs(1)
        gutter = " " * len(str(f.line))
        end = f.end_column if f.end_line == f.line else len(source) + 1
        width = max(1, end - f.column)
        text.append(f"{gutter} |\n", style="blue")
        text.append(f"{f.line} | ", style="blue")
        text.append(f"{source}\n")
        text.append(f"{gutter} | ", style="blue")
        text.append(" " * (f.column - 1) + "^" * width + "\n", style=_SEVERITY_STYLE[f.severity.value])
        text.append(f"{gutter} |\n", style="blue")
    if f.scope:
        text.append("  = compiled: ", style="bold")
        text.append(f"{f.scope}\n")
    if f.hint:
        text.append("  = help: ", style="bold cyan")
        text.append(f"{f.hint}\n")
    text.append("  = docs: ", style="bold")
    text.append(f"{f.url}\n")
    return text


def write_rich(findings: Sequence[Finding], out: IO[str]) -> None:
    is_terminal = out.isatty() and "NO_COLOR" not in os.environ
    console = Console(
        file=out,
        force_terminal=is_terminal,
        no_color=not is_terminal,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )
    for finding in findings:
        console.print(_finding_text(finding))
