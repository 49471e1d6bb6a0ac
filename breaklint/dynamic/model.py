"""Plain data that crosses the pipe between the supervisor and its workers (pickled)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ProbeStatus(StrEnum):
    OK = "ok"
    ERROR = "error"  # the probe file, the probe or the model raised
    TIMEOUT = "timeout"  # ran past --probe-timeout; its worker was killed
    CRASHED = "crashed"  # the worker died (os._exit, a signal, the OOM killer)


class BreakKind(StrEnum):
    GRAPH_BREAK = "graph-break"  # Dynamo ends a graph, runs the statement eagerly, resumes
    FRAME_SKIPPED = "frame-skipped"  # Dynamo gave up on the whole function: it runs eagerly


@dataclass(frozen=True, slots=True)
class Probe:
    """A `probe_*` function in a probe file; `key` names it in reports."""

    path: str
    name: str
    line: int

    @property
    def key(self) -> str:
        return f"{self.path}::{self.name}"


@dataclass(frozen=True, slots=True)
class Span:
    """A flagged expression in a linted file, in findings' columns (1-based characters, the
    end exclusive), so a probe can tell whether that expression ran and not only its line."""

    path: str  # real path
    line: int
    column: int
    end_line: int
    end_column: int

    def holds(self, line: int, column: int, end_line: int, end_column: int) -> bool:
        return (self.line, self.column) <= (line, column) and (end_line, end_column) <= (
            self.end_line,
            self.end_column,
        )


@dataclass(frozen=True, slots=True)
class Watch:
    """What every probe records: breaks and executed lines in `linted`, and which `spans` ran."""

    linted: frozenset[str]  # real paths of the linted files: breaks are attributed to these
    spans: frozenset[Span] = frozenset()


@dataclass(frozen=True, slots=True)
class ProbeRequest:
    probe: Probe
    watch: Watch


@dataclass(frozen=True, slots=True)
class Break:
    """One graph break or skipped frame, at the innermost frame inside the linted tree."""

    kind: BreakKind
    path: str
    line: int
    column: int
    end_column: int
    function: str  # qualified name of the function holding the line
    gb_id: str | None
    gb_type: str
    explanation: str
    hints: tuple[str, ...]
    reason: str  # Dynamo's message, as it logged it
    gb_url: str | None  # Dynamo's page for this graph break
    probe: str
    bytecode: str  # `dis` listing around the breaking instruction, which is marked
    instruction: str  # e.g. "CALL 1 @ offset 42"
    stack: tuple[str, ...]  # "path:line in function", outermost first, user frames only
    config_knob: str | None = None  # a torch._dynamo.config flag that makes this break go away

    def key(self) -> tuple[str, str, int, str]:
        return (self.kind, self.path, self.line, self.gb_id or self.gb_type)


@dataclass(frozen=True, slots=True)
class ProbeResult:
    probe: Probe
    status: ProbeStatus
    wall_s: float
    graphs: int = 0
    ops_per_graph: tuple[int, ...] = ()
    frames_skipped: int = 0
    breaks: tuple[Break, ...] = ()
    executed: frozenset[tuple[str, int]] = frozenset()  # (real path, line) run in eager mode
    # Watched spans with an instruction in some function that ran eagerly, and those of them
    # where such an instruction ran: `a and t.any()` runs its line without running `t.any()`.
    instrumented: frozenset[Span] = frozenset()
    reached: frozenset[Span] = frozenset()
    error: str | None = None  # one line: the exception or what killed the worker
    traceback: str | None = None  # its tail

    def to_dict(self) -> dict[str, Any]:
        return {
            "probe": self.probe.key,
            "path": self.probe.path,
            "name": self.probe.name,
            "status": self.status.value,
            "graphs": self.graphs,
            "breaks": len(self.breaks),
            "ops_per_graph": list(self.ops_per_graph),
            "frames_skipped": self.frames_skipped,
            "wall_s": round(self.wall_s, 3),
            "error": self.error,
            "traceback": self.traceback,
        }


def break_fields(item: Break) -> dict[str, Any]:
    """The evidence a finding carries in JSON for a break."""
    data = dataclasses.asdict(item)
    for private in ("path", "line", "column", "end_column"):
        data.pop(private)
    data["hints"] = list(item.hints)
    data["stack"] = list(item.stack)
    data["kind"] = item.kind.value
    return data
