"""Plain data that crosses the pipe between the supervisor and its workers (pickled)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from breaklint.dynamic.variant_mode import VariantMode
from breaklint.findings import BreakKind, Evidence, Range

_KNOB_NOTE = "Dynamo did not break here when rerun with torch._dynamo.config.{} = True"


class ProbeStatus(StrEnum):
    OK = "ok"
    ERROR = "error"  # the probe file, the probe or the model raised
    TIMEOUT = "timeout"  # ran past --probe-timeout; its worker was killed
    CRASHED = "crashed"  # the worker died (os._exit, a signal, the OOM killer)
    OUT_OF_MEMORY = "out-of-memory"  # ran past --probe-memory; its worker was replaced


class ProbeError(Exception):
    """The probe itself is wrong (bad return shape, a model that cannot be built): reported
    with its message, without a traceback. Defined here, not in the worker, which runs as
    `__main__`: an exception class from there would not be the one probes raise."""


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
    range: Range


@dataclass(frozen=True, slots=True)
class Watch:
    """What every probe records: breaks and executed lines in `linted`, which `spans` ran, and
    the recompilations over the `variants` of its call, run for at most `variant_budget_s`
    (0: no limit)."""

    linted: frozenset[str]  # real paths of the linted files: breaks are attributed to these
    spans: frozenset[Span] = frozenset()
    variants: VariantMode = VariantMode.GUIDED
    variant_budget_s: float = 0.0
    # Also compile with mode="reduce-overhead" (Inductor, CUDA graphs) and record where CUDA
    # graphs are skipped: on CUDA only (`--cudagraphs`).
    cudagraphs: bool = False


@dataclass(frozen=True, slots=True)
class OutputsCheck:
    """Where a probe's eager outputs are kept: `--fix` saves them before it writes fixes and
    compares with them after, to keep only fixes that change no result."""

    path: str  # a file for this probe
    compare: bool  # False: save the outputs there; True: compare them with what is there


@dataclass(frozen=True, slots=True)
class OutputsPlan:
    """Every probe's OutputsCheck of one run: a file per probe in `folder`."""

    folder: str
    compare: bool

    def for_probe(self, probe: Probe) -> OutputsCheck:
        name = hashlib.sha256(probe.key.encode()).hexdigest()[:24]
        return OutputsCheck(os.path.join(self.folder, f"{name}.pt"), self.compare)


@dataclass(frozen=True, slots=True)
class ProbeRequest:
    probe: Probe
    watch: Watch
    outputs: OutputsCheck | None = None


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


def each_skip_once(skips: Iterable[Break]) -> tuple[Break, ...]:
    """CUDA-graph skips, each place and reason once (the first seen): they share a gb_type, so
    the reason Inductor gave (the explanation) tells them apart, not `Break.key`."""
    kept: dict[tuple[str, int, str], Break] = {}
    for item in skips:
        kept.setdefault((item.path, item.line, item.evidence.explanation), item)
    return tuple(kept.values())


@dataclass(frozen=True, slots=True)
class GuardSummary:
    """One guard that failed over a probe's calls, with the values it failed on merged:
    `n == 1`, `n == 2` are the guard `n == N`."""

    guard: str  # with numbers as N
    first: str  # as it first failed
    failures: int
    # It failed again on a later value: Dynamo did not generalise it (automatic dynamic fails
    # a guard once, then compiles a graph general in the value).
    per_value: bool
    limit_hit: bool  # its frame reached the recompile limit
    path: str | None  # real path of the line that installed it, when it names one
    line: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "guard": self.guard,
            "first": self.first,
            "failures": self.failures,
            "per_value": self.per_value,
            "recompile_limit_hit": self.limit_hit,
            "path": self.path,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class RecompileSummary:
    """What Dynamo compiled over a probe's call and its variants (one compiled target)."""

    calls: int  # calls run, the probe's own included
    calls_failed: int  # variants that raised (a size the model cannot take): not counted
    compiles: int
    recompiles: int
    guard_failures: int
    limit_hit: bool
    guards: tuple[GuardSummary, ...] = ()
    variants_s: float = 0.0  # the time the variant calls added
    budget_hit: bool = False  # variants were left out: the variant budget was spent

    def to_json(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "calls_failed": self.calls_failed,
            "compiles": self.compiles,
            "recompiles": self.recompiles,
            "guard_failures": self.guard_failures,
            "cache_limit_hit": self.limit_hit,
            "guards": [guard.to_json() for guard in self.guards],
            "variants_s": round(self.variants_s, 3),
            "variant_budget_hit": self.budget_hit,
        }

    def line(self) -> str:
        """One line for the full output."""
        failing = [g for g in self.guards if g.per_value]
        verdict = (
            f"recompiles on every new value of {', '.join(f'`{g.guard}`' for g in failing)}"
            if failing
            else "generalised"
            if self.recompiles
            else "no recompile"
        )
        limit = ", recompile limit hit: runs eagerly" if self.limit_hit else ""
        budget = "; variant budget spent, variants left out" if self.budget_hit else ""
        return (
            f"calls {self.calls}  compiles {self.compiles}  recompiles {self.recompiles}  "
            f"guard failures {self.guard_failures} ({verdict}{limit}){budget}"
        )


@dataclass(frozen=True, slots=True)
class ResumeCount:
    """How often one call of the probe resumed after the graph break at a line: a break in a
    layer's forward splits the graph once per layer."""

    path: str  # real path
    line: int
    per_call: int


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
    # With an OutputsCheck that compares: how the eager outputs differ from the saved ones
    # (None when they are equal, or when nothing was compared).
    outputs_differ: str | None = None
    # Over the probe's call and its variants: compiles and the guards that failed (None when
    # the probe did not run to the end), and a "break" of kind RECOMPILES per guard that
    # failed on every new value.
    recompiles: RecompileSummary | None = None
    recompile_breaks: tuple[Break, ...] = ()
    # Resumes after each break in one warm call (the first call the variants run; none with
    # --no-variants and no calls of the probe's own), most first.
    resumes: tuple[ResumeCount, ...] = ()
    device: str | None = None  # where the worker ran it, "cpu" or "cuda" (None: no worker did)
    # With `--device auto` on a GPU: the device the probe failed on and torch's error, when the
    # model mixed tensors it made on the CPU into that run and the probe ran again on the CPU.
    fell_back: str | None = None
    # With `--cudagraphs`: each reason Inductor gave for running a graph without CUDA graphs,
    # at the line it names (kind CUDAGRAPHS_SKIPPED; not breaks: the graphs stay whole).
    cudagraph_skips: tuple[Break, ...] = ()

    def splits(self, item: Break) -> int | None:
        """How often one call splits the graph at `item` (None: not measured, or a skipped
        frame, which runs eagerly rather than split)."""
        if not self.resumes or item.kind is BreakKind.FRAME_SKIPPED:
            return None
        counts = {(r.path, r.line): r.per_call for r in self.resumes}
        # A resume function's name holds the line Dynamo names for its break.
        return counts.get((item.path, item.evidence.dynamo_line or item.line), 0)

    def costliest_breaks(self) -> list[Break]:
        """The probe's breaks, costliest first: skipped frames (they run eagerly in full), then
        the break that splits a call most often."""
        return sorted(
            self.breaks,
            key=lambda b: (b.kind is not BreakKind.FRAME_SKIPPED, -(self.splits(b) or 0)),
        )

    def cost_line(self, item: Break, path: str) -> str:
        """One line on what `item` (in `path`, as displayed) costs a call of the probe."""
        where = f"{path}:{item.line} in `{item.evidence.function}` ({item.evidence.gb_type})"
        if item.evidence.later_call:  # the first call took another path
            where += ", from the second call on"
        if item.kind is BreakKind.FRAME_SKIPPED:
            return f"skips the whole frame, which runs eagerly: {where}"
        splits = self.splits(item)
        if splits is None:
            return f"splits the graph: {where}"
        return f"splits {splits} time{'s' if splits != 1 else ''} per call: {where}"

    @property
    def break_count(self) -> int:
        """The places of graph breaks and skipped frames, as `--fix` compares them before and
        after."""
        return len(self.breaks)

    @property
    def graph_breaks(self) -> int:
        """How often the compiled call is split: one less than its graphs, as
        `torch._dynamo.explain` counts `graph_break_count` (0, not explain's -1, when Dynamo
        made no graph). A break in a layer's forward splits the call once per layer; a skipped
        frame runs eagerly and splits nothing."""
        return max(self.graphs - 1, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "probe": self.probe.key,
            "path": self.probe.path,
            "name": self.probe.name,
            "status": self.status.value,
            "graphs": self.graphs,
            "breaks": self.graph_breaks,
            "break_sites": len(self.breaks),
            "ops_per_graph": list(self.ops_per_graph),
            "frames_skipped": self.frames_skipped,
            "wall_s": round(self.wall_s, 3),
            "device": self.device,
            "fell_back": self.fell_back,
            "error": self.error,
            "traceback": self.traceback,
            "recompiles": None if self.recompiles is None else self.recompiles.to_json(),
            "cudagraph_skips": len(self.cudagraph_skips),
            "breaks_by_cost": [
                {
                    "path": item.path,
                    "line": item.line,
                    "dynamo_line": item.evidence.dynamo_line,
                    "function": item.evidence.function,
                    "gb_type": item.evidence.gb_type,
                    "kind": item.kind.value,
                    "splits_per_call": self.splits(item),
                    "later_call": item.evidence.later_call,
                }
                for item in self.costliest_breaks()
            ],
        }


@dataclass(frozen=True, slots=True)
class GraphRequest:
    """Show the FX graphs Dynamo captures for a probe (`breaklint graph`) and, with `wraps`,
    insert a pass-through wrapper after each named node and check the edit."""

    probe: Probe
    wraps: tuple[str, ...] = ()  # as the user wrote them: `name`, `graphN:name`, a module path


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One FX node of a captured graph, as `breaklint graph` shows it."""

    name: str
    op: str  # placeholder, get_attr, call_function, call_method, call_module, output
    target: str  # short and readable: `linear`, `Tensor.view`, `getitem`
    path: str | None  # the user source it came from (meta["stack_trace"], innermost frame)
    line: int | None
    source: str | None  # that line's text, stripped
    modules: tuple[str, ...]  # module paths holding it, outermost first (`h.0`, `h.0.attn`)
    lifted: bool  # a placeholder Dynamo lifted from a parameter or buffer

    @property
    def module(self) -> str | None:
        return self.modules[-1] if self.modules else None


@dataclass(frozen=True, slots=True)
class CapturedGraph:
    """One graph in the order Dynamo compiled it, and the breaks between it and the one
    before (why the previous graph ended)."""

    index: int  # 1-based, as `graphN:` names it
    nodes: tuple[GraphNode, ...]
    after: tuple[Break, ...]


@dataclass(frozen=True, slots=True)
class WrapOutcome:
    """What `--wrap SPEC` did: where it resolved and what its wrapper saw, or why it failed."""

    spec: str
    ok: bool
    message: str  # one line: what the wrapper saw, or exactly why the wrap failed
    graph: int | None = None
    node: str | None = None
    module: str | None = None  # the module path SPEC named, when it named one
    seen: str | None = None  # the value the wrapper's hook saw: `Tensor(2, 8) float32`


@dataclass(frozen=True, slots=True)
class GraphResult:
    probe: Probe
    status: ProbeStatus
    wall_s: float
    graphs: tuple[CapturedGraph, ...] = ()
    trailing: tuple[Break, ...] = ()  # breaks after the last graph (skipped frames among them)
    frames_skipped: int = 0
    wraps: tuple[WrapOutcome, ...] = ()
    wrapped_graphs: int | None = None  # graphs compiled with the wrappers in, when any resolved
    outputs_differ: str | None = None  # how compiled outputs with wrappers differ from eager
    error: str | None = None
    traceback: str | None = None

    @property
    def breaks(self) -> tuple[Break, ...]:
        return tuple(b for graph in self.graphs for b in graph.after) + self.trailing


# Everything that crosses the pipe: the supervisor sends requests, a worker answers with
# WorkerReady or WorkerFailed once, then with one result per request.
Message = ProbeRequest | ProbeResult | GraphRequest | GraphResult | WorkerReady | WorkerFailed
