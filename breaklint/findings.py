"""Findings: plain, picklable data that crosses process boundaries and serializes to JSON."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from breaklint.scope import Scope


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Origin(StrEnum):
    STATIC = "static"
    DYNAMIC = "dynamic"


class BreakKind(StrEnum):
    GRAPH_BREAK = "graph-break"  # Dynamo ends a graph, runs the statement eagerly, resumes
    FRAME_SKIPPED = "frame-skipped"  # Dynamo gave up on the whole function: it runs eagerly
    RECOMPILES = "recompiles"  # a guard installed here failed again on every new value
    # Inductor ran a graph without CUDA graphs under mode="reduce-overhead" (`--cudagraphs`)
    CUDAGRAPHS_SKIPPED = "cudagraphs-skipped"


class Status(StrEnum):
    UNVERIFIED = "unverified"
    CONFIRMED = "confirmed"
    NOT_REPRODUCED = "not-reproduced"
    NOT_REACHED = "not-reached"


@dataclass(frozen=True, slots=True)
class Range:
    """A stretch of a file: 1-based lines and columns (characters), the end exclusive. Where a
    finding is, what a fix rewrites and edits, what a probe watches, a SARIF region."""

    line: int
    column: int
    end_line: int
    end_column: int

    def holds(self, other: Range) -> bool:
        return (self.line, self.column) <= (other.line, other.column) and (
            other.end_line,
            other.end_column,
        ) <= (self.end_line, self.end_column)


@dataclass(frozen=True, slots=True)
class Edit(Range):
    """Replace the text of the range with `content`."""

    content: str


class Applicability(StrEnum):
    """Whether a fix keeps eager behaviour identical (safe) or may change it (unsafe), as in
    ruff: only `--unsafe-fixes` applies an unsafe one."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Fix:
    """A fix a rule offers: decided on `ast` while linting, made by the rule's libcst rewrite
    (`Rule.rewrites`) only when edits are needed (`--fix`, `--diff`, JSON and SARIF)."""

    message: str
    applicability: Applicability
    rewrite: str  # which of the rule's rewrites, e.g. "guard"
    target: Range  # the node the rewrite replaces
    torch: str = "torch"  # the name the rewritten code reaches torch by
    adds_torch_import: bool = False  # the file does not bind `torch`: the fix imports it
    # Other modules the fix's code names that the file does not import: the fix imports them.
    adds_imports: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = ()  # the text edits, once the fix engine has made them

    @property
    def added_modules(self) -> tuple[str, ...]:
        """The modules the fix imports (`import torch` first)."""
        return ("torch",) * self.adds_torch_import + self.adds_imports

    def applies(self, unsafe: bool) -> bool:
        """Whether `--fix` applies it, given `--unsafe-fixes` or not."""
        return self.applicability is Applicability.SAFE or unsafe


@dataclass(frozen=True, slots=True)
class RecompileFacts:
    """A guard that made Dynamo compile again on every new value, over a probe's calls."""

    guard: str  # the guard as it first failed, e.g. "n == 1"
    failures: int  # how often it failed
    compiles: int  # compilations over the probe's calls
    calls: int  # the probe's calls: its own and the variants
    limit_hit: bool  # the recompile limit was reached: the frame runs eagerly from then on

    def to_json(self) -> dict[str, Any]:
        return {
            "guard": self.guard,
            "guard_failures": self.failures,
            "compiles": self.compiles,
            "calls": self.calls,
            "recompile_limit_hit": self.limit_hit,
        }


@dataclass(frozen=True, slots=True)
class Evidence:
    """What Dynamo reported for the break that confirms a finding (or that is one)."""

    kind: BreakKind
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
    recompiles: RecompileFacts | None = None  # for kind RECOMPILES
    # The line Dynamo's own messages (TORCH_LOGS) name, when the breaking statement is on
    # another: Dynamo 2.13 misnumbers the lines of the functions it resumes in after a break.
    dynamo_line: int | None = None
    # Dynamo broke here on the probe's second call only: the first took another path (a
    # module that initialises itself on its first call compiles its initialised path then).
    later_call: bool = False

    def to_json(self) -> dict[str, Any]:
        """The finding's JSON fields: a public contract, named here and not by the attributes."""
        recompiles = {} if self.recompiles is None else {"recompiles": self.recompiles.to_json()}
        return recompiles | {
            "kind": self.kind.value,
            "function": self.function,
            "gb_id": self.gb_id,
            "gb_type": self.gb_type,
            "explanation": self.explanation,
            "hints": list(self.hints),
            "reason": self.reason,
            "gb_url": self.gb_url,
            "probe": self.probe,
            "bytecode": self.bytecode,
            "instruction": self.instruction,
            "stack": list(self.stack),
            "config_knob": self.config_knob,
            "frame_skipped": self.kind is BreakKind.FRAME_SKIPPED,
            "dynamo_line": self.dynamo_line,
            "later_call": self.later_call,
        }


@dataclass(frozen=True, slots=True)
class ProbeFailure:
    """Why a probe proves nothing: it raised, timed out or crashed its worker."""

    probe: str
    status: str

    def to_json(self) -> dict[str, Any]:
        """The finding's JSON fields: a public contract, named here and not by the attributes."""
        return {"probe": self.probe, "probe_status": self.status}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one place."""

    code: str
    name: str
    severity: Severity
    message: str
    path: str
    range: Range
    url: str
    hint: str | None = None
    scope: Scope | None = None  # the compile root that makes this code relevant
    origin: Origin = Origin.STATIC
    status: Status = Status.UNVERIFIED
    fix: Fix | None = None
    evidence: Evidence | ProbeFailure | None = None  # only the dynamic phase gives one
    # Under an `if` that Dynamo decides while tracing (on values, not on tensors): in a
    # followed library's code, whether the break happens depends on what the caller passes.
    guarded: bool = False

    @property
    def line(self) -> int:
        return self.range.line

    @property
    def column(self) -> int:
        return self.range.column

    @property
    def end_line(self) -> int:
        return self.range.end_line

    @property
    def end_column(self) -> int:
        return self.range.end_column

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)

    def to_json(self) -> dict[str, Any]:
        """The finding's JSON fields, its range's among them: a public contract."""
        fields = dataclasses.asdict(self)
        data = {key: fields[key] for key in ("code", "name", "severity", "message", "path")}
        data |= fields["range"]
        data |= {key: fields[key] for key in ("url", "hint", "scope", "origin", "status", "fix")}
        data["scope"] = None if self.scope is None else self.scope.label()
        if self.evidence is not None:
            data.update(self.evidence.to_json())
        return data
