"""The `full` format: each finding with its source line and a caret under the span, Dynamo's
evidence when a probe confirmed it, and the probe report; coloured by rich on a terminal.

Written elsewhere (a pipe, a file, pre-commit's captured output), the text carries no styles,
and rich is not imported: its import was a tenth of the instructions of `breaklint FILE` on a
file with findings (callgrind). The plain text is what rich writes there: each part's control
codes other than tabs and newlines removed, tabs expanded to 8 columns, a newline after each
entry; rich also drops whitespace that ends a line past the terminal's width, which the plain
text keeps.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import IO, TYPE_CHECKING, Any

from breaklint.findings import Evidence, Finding, Status
from breaklint.source import display_path

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


@cache
def _lines(path: str) -> list[str]:
    from breaklint.source import read_source, source_lines

    text = read_source(path)
    if not isinstance(text, str) or not text:
        return []
    return [line.rstrip("\r\n") for line in source_lines(text)]


def _coloured(out: IO[str]) -> bool:
    """Whether `out` is a terminal that shows colours (no NO_COLOR)."""
    return out.isatty() and "NO_COLOR" not in os.environ


def plain_console(out: IO[str], width: int | None = None) -> Console:
    """A console writing text as given (no markup, highlighting or emoji), coloured only on
    a terminal without NO_COLOR."""
    from rich.console import Console

    is_terminal = _coloured(out)
    return Console(
        file=out,
        force_terminal=is_terminal,
        no_color=not is_terminal,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
        width=None if is_terminal else width,
    )


# The control codes rich's `Text` removes from what it is given (bell, backspace, vertical tab,
# form feed, carriage return).
_CONTROL_CODES = dict.fromkeys((7, 8, 11, 12, 13))


class _Styled:
    """Text in parts, each with its style (None: unstyled): rich's `Text` on a terminal, plain
    text elsewhere."""

    def __init__(self, text: str = "", style: str | None = None) -> None:
        self.parts: list[tuple[str, str | None]] = [(text, style)] if text else []

    def append(self, text: str, style: str | None = None) -> None:
        self.parts.append((text, style))

    def plain(self) -> str:
        """The text as rich writes it without a terminal."""
        return "".join(text.translate(_CONTROL_CODES) for text, _ in self.parts).expandtabs(8)

    def rich(self) -> Text:
        from rich.text import Text

        text = Text()
        for part, style in self.parts:
            text.append(part, style=style)
        return text


def _finding_text(f: Finding, show_bytecode: bool) -> _Styled:
    text = _Styled()
    text.append(f"{f.path}:{f.line}:{f.column}: ", style="bold")
    text.append(f.code, style=_SEVERITY_STYLE[f.severity.value])
    status = "" if f.status == Status.UNVERIFIED else f", {f.status.value}"
    text.append(f" [{f.severity.value}{status}] ", style="dim")
    text.append(f"{f.message}\n")
    lines = _lines(f.path)
    if 0 < f.line <= len(lines):
        source = lines[f.line - 1].expandtabs(1)
        gutter = " " * len(str(f.line))
        end = f.end_column if f.end_line == f.line else len(source) + 1
        source, column, end = _around_span(source, f.column, end)
        width = max(1, end - column)
        text.append(f"{gutter} |\n", style="blue")
        text.append(f"{f.line} | ", style="blue")
        text.append(f"{source}\n")
        text.append(f"{gutter} | ", style="blue")
        text.append(
            " " * (column - 1) + "^" * width + "\n", style=_SEVERITY_STYLE[f.severity.value]
        )
        text.append(f"{gutter} |\n", style="blue")
    if f.scope is not None:
        text.append("  = compiled: ", style="bold")
        text.append(f"{f.scope.label()}\n")
    if isinstance(f.evidence, Evidence):
        _evidence(text, f.evidence, show_bytecode)
    if f.hint:
        text.append("  = help: ", style="bold cyan")
        text.append(f"{f.hint}\n")
    if f.fix is not None:
        text.append(f"  = fix ({f.fix.applicability}): ", style="bold green")
        text.append(f"{f.fix.message}\n")
    text.append("  = docs: ", style="bold")
    text.append(f"{f.url}\n")
    return text


SHOWN_COLUMNS = 200  # a longer source line (minified, generated) is cut around the span
_BEFORE_SPAN = 40  # columns of context kept before the span in a cut line


def _around_span(source: str, column: int, end: int) -> tuple[str, int, int]:
    """The line as shown, and the span's 1-based start and exclusive end in it: a line over
    SHOWN_COLUMNS is cut to that many columns from a little before the span, `…` marking
    each cut end; the caret stops at the cut."""
    if len(source) <= SHOWN_COLUMNS:
        return source, column, end
    start = max(0, min(column - 1 - _BEFORE_SPAN, len(source) - SHOWN_COLUMNS))
    stop = start + SHOWN_COLUMNS
    before = "…" if start > 0 else ""
    after = "…" if stop < len(source) else ""
    shift = len(before) - start
    return before + source[start:stop] + after, column + shift, min(end, stop + 1) + shift


def _evidence(text: _Styled, evidence: Evidence, show_bytecode: bool) -> None:
    """What Dynamo said about the break that confirmed this finding."""
    text.append("  = dynamo: ", style="bold magenta")
    if evidence.recompiles is not None:
        facts = evidence.recompiles
        text.append(
            f"recompiles: guard `{facts.guard}` failed {facts.failures} times, "
            f"{facts.compiles} compiles over {facts.calls} calls"
            + (", recompile limit hit: runs eagerly" if facts.limit_hit else "")
        )
    else:
        text.append(f"{evidence.gb_id or 'no GB id'} {evidence.gb_type}")
    text.append(f" in {evidence.function}, probe {evidence.probe}\n")
    if evidence.dynamo_line is not None:
        text.append("  = dynamo line: ", style="bold")
        text.append(
            f"Dynamo's messages (TORCH_LOGS) say line {evidence.dynamo_line}: it misnumbers "
            "the lines of a function it resumes in after a break; the breaking instruction "
            "is here\n"
        )
    if evidence.explanation:
        text.append("  = why: ", style="bold")
        text.append(f"{evidence.explanation}\n")
    for hint in evidence.hints[:2]:
        text.append("  = dynamo hint: ", style="bold")
        text.append(f"{hint}\n")
    if show_bytecode and evidence.bytecode:
        text.append(f"  = bytecode ({evidence.instruction}):\n", style="bold")
        text.append("".join(f"      {row}\n" for row in evidence.bytecode.splitlines()))


def _probe_line(result: Any) -> _Styled:
    text = _Styled()
    text.append(f"{result.probe.key}: ", style="bold")
    text.append(result.status.value, style="green" if result.status == "ok" else "bold red")
    ops = ",".join(map(str, result.ops_per_graph)) or "-"
    sites = len(result.breaks)
    places = f" ({sites} place{'s' if sites != 1 else ''})" if sites else ""
    text.append(
        f"  graphs {result.graphs}  breaks {result.graph_breaks}{places}  ops per graph {ops}"
        f"  frames skipped {result.frames_skipped}  {result.wall_s:.2f}s"
    )
    if result.device:
        text.append(f" on {result.device}")
    if result.fell_back:
        text.append(f" (failed on {result.fell_back})")
    if result.recompiles is not None:
        text.append(f"\n  {result.recompiles.line()}")
    for item in result.costliest_breaks():
        text.append(f"\n  {result.cost_line(item, display_path(item.path))}")
    return text


def write_findings(
    findings: Sequence[Finding],
    out: IO[str],
    probes: Sequence[Any] = (),
    show_bytecode: bool = False,
) -> None:
    """The findings, then the probes' report: coloured by rich on a terminal, plain text
    elsewhere."""
    entries = [_finding_text(finding, show_bytecode) for finding in findings]
    if probes:
        entries.append(_Styled("Probes", "bold underline"))
        for result in probes:
            entries.append(_probe_line(result))
            if result.error:
                entries.append(_Styled((result.traceback or result.error).rstrip(), "dim"))
    if not _coloured(out):
        out.write("".join(f"{entry.plain()}\n" for entry in entries))
        return
    console = plain_console(out)
    for entry in entries:
        console.print(entry.rich())
