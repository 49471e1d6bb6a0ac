"""Plain data that crosses the pipe between the supervisor and its workers (pickled)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from breaklint.findings import BreakKind, Evidence

_KNOB_NOTE = "Dynamo did not break here when rerun with torch._dynamo.config.{} = True"


class ProbeStatus(StrEnum):
    OK = "ok"
    ERROR = "error"  # the probe file, the probe or the model raised
    TIMEOUT = "timeout"  # ran past --probe-timeout; its worker was killed
    CRASHED = "crashed"  # the worker died (os._exit, a signal, the OOM killer)
    OUT_OF_MEMORY = "out-of-memory"  # ran past --probe-memory; its worker was replaced


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
class WorkerReady:
    """A worker's first message when it can run probes."""

    device: str  # "cpu" or "cuda", as it resolved --device
    warning: str | None  # about the torch it imported, if breaklint does not know that version


@dataclass(frozen=True, slots=True)
class WorkerFailed:
    """A worker's first message when it cannot run any probe (torch missing, no CUDA)."""

    error: str


@dataclass(frozen=True, slots=True)
class Break:
    """One graph break or skipped frame, at the innermost frame inside the linted tree."""

    path: str  # real path
    line: int
    column: int
    end_column: int
    evidence: Evidence  # what Dynamo said, as a finding carries it

    @property
    def kind(self) -> BreakKind:
        return self.evidence.kind

    def key(self) -> tuple[str, str, int, str]:
        return (self.kind, self.path, self.line, self.evidence.gb_id or self.evidence.gb_type)

    def with_knob_note(self, hint: str | None) -> str | None:
        """`hint`, and the Dynamo config flag under which this break went away, if one did."""
        knob = self.evidence.config_knob
        if knob is None:
            return hint
        note = _KNOB_NOTE.format(knob)
        return f"{hint}; {note}" if hint else note


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


# Everything that crosses the pipe: the supervisor sends requests, a worker answers with
# WorkerReady or WorkerFailed once, then with one result per request.
Message = ProbeRequest | ProbeResult | WorkerReady | WorkerFailed
