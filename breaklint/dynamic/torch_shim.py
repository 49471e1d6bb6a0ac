"""Every private torch API breaklint touches, in one place. Imported only inside workers.

Supports the torch versions `breaklint.knowledge.versions` names: the structured trace artifact
`dynamo_graph_break_reason`, `torch._dynamo.utils` compilation metrics, the
graph-break registry JSON and `torch._dynamo.config` knobs. See shared notes on Dynamo 2.13.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import dis
import json
import linecache
import logging
import os
import re
import sys
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import torch
import torch._dynamo
import torch._guards
import torch.fx
from torch._dynamo import convert_frame, eval_frame, symbolic_convert
from torch._dynamo import guards as dynamo_guards
from torch._dynamo import utils as dynamo_utils

from breaklint.dynamic import linetable
from breaklint.dynamic.bytecode import resumed_function
from breaklint.dynamic.model import GraphNode
from breaklint.knowledge import versions

KNOBS = ("capture_scalar_outputs", "capture_dynamic_output_shape_ops")
TORCH_DIR = os.path.dirname(torch.__file__)

_GB_LINK = re.compile(r"https://\S+/gb/(gb\d+)\.html")
_HEADER = re.compile(r"^Graph break in user code at (?P<path>.+):(?P<line>\d+)$", re.MULTILINE)
_FRAME = re.compile(r'^  File "(?P<path>.+)", line (?P<line>\d+), in (?P<function>.+)$')
_NESTED = "*** While handling this graph break, another graph break occurred: ***"
_SKIPPED = "Skipping the function and falling back to eager"
_OPS = ("call_function", "call_method", "call_module")


def prepare_compiler() -> None:
    """Import what `torch.compile` imports on its first use (its debugging and backend
    modules: a quarter of a second), without compiling or running anything: no tensor is
    made, no thread pool started."""
    torch.compile(_nothing, backend=_passthrough)


def _nothing() -> None:
    return None


def _passthrough(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    return gm.forward


def version_problem() -> str | None:
    """A warning when this torch is outside the versions breaklint supports."""
    return versions.version_problem(torch.__version__)


@dataclass(frozen=True, slots=True)
class Frame:
    path: str
    line: int
    function: str
    column: int | None  # 1-based, from the traceback's carets; None when the whole line
    end_column: int | None
    # The line Dynamo named, when the source's is another: a resume function's line table is
    # off (see `linetable`).
    dynamo_line: int | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    """One graph break message; a skipped frame logs the cause, then the reason for the skip."""

    gb_id: str | None
    gb_type: str
    explanation: str
    hints: tuple[str, ...]
    url: str | None


@dataclass(frozen=True, slots=True)
class RawBreak:
    frames: tuple[Frame, ...]  # outermost first; the last one is where Dynamo stopped
    segments: tuple[Segment, ...]
    skipped: bool  # Dynamo skipped the whole frame
    reason: str
    later_call: bool = False  # on the call after the first only (`capture(again=True)`)


# A compile of one frame, (frame id, compile number), as Dynamo numbers them ("0/1").
CompileId = tuple[int | None, int | None]


@dataclass(frozen=True, slots=True)
class GuardFailure:
    """A guard that failed when a call came back, as Dynamo's recompile reason names it."""

    guard: str  # e.g. "n == 2", "tensor 'x' size mismatch at index 0. expected 2, actual 3"
    source: str | None  # the line that installed the guard, as Dynamo quotes it
    path: str | None  # that line's file, as Dynamo writes it (its tail only, at times)
    line: int | None
    function: str | None
    # The compiled frame the guard belongs to (for a shape guard, which names no line).
    frame_path: str | None
    frame_line: int | None
    frame_function: str | None
    reason: str  # the whole reason
    limit_hit: bool  # this recompilation was refused: the frame reached the recompile limit
    index: int  # its place among the compilations (see `compilations`)


@dataclass(frozen=True, slots=True)
class Compiles:
    """What Dynamo compiled over every call of a capture."""

    compiles: int  # frame compilations that gave a graph (resumed frames count too)
    recompiles: int  # those of them that a failed guard caused
    failures: tuple[GuardFailure, ...]  # one per recompilation (or refused one), in order
    limit_hit: bool  # a frame reached the recompile limit and runs eagerly from then on


@dataclass(slots=True)
class Capture:
    breaks: list[RawBreak] = field(default_factory=list)
    ops_per_graph: list[int] = field(default_factory=list)
    frames_skipped: int = 0
    compiles: Compiles | None = None  # over `call` and `then`, when `then` was given
    graphs: list[torch.fx.GraphModule] = field(default_factory=list)
    # The compile of each graph and of each logged break (the first len(...) of `breaks`),
    # and every compile in the order it began: a compile yields its graph, then logs the break
    # that ended it, which puts graphs and breaks on one timeline.
    graph_compiles: list[CompileId] = field(default_factory=list)
    break_compiles: list[CompileId] = field(default_factory=list)
    compile_order: list[CompileId] = field(default_factory=list)
    # Per graph, its placeholders Dynamo lifted from parameters and buffers (known only while
    # the backend runs: the placeholders' `grapharg` is dropped after the compile).
    lifted: list[frozenset[str]] = field(default_factory=list)
    # Per graph, the `self` of the frame it was compiled from (None for a plain function):
    # a submodule's forward that Dynamo compiles on its own has no module stack of its own.
    owners: list[Any] = field(default_factory=list)
    # The guards every compile of the first call installed, one expression each
    # (`L['n'] == 3`): what a later call must keep the same to run without compiling again.
    guards: list[str] = field(default_factory=list)

    def seen(self, compile_id: CompileId) -> CompileId:
        if compile_id not in self.compile_order:
            self.compile_order.append(compile_id)
        return compile_id


@cache
def registry() -> dict[str, dict[str, Any]]:
    """torch's graph-break registry: GB id -> {Gb_type, Context, Explanation, Hints}."""
    path = os.path.join(os.path.dirname(torch._dynamo.__file__), "graph_break_registry.json")
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError:
        return {}
    return {
        gb: entries[0] if isinstance(entries, list) else entries for gb, entries in data.items()
    }


def _segment(text: str) -> Segment:
    link = _GB_LINK.search(text)
    gb_id = link.group(1).upper() if link else None
    lines = [line for line in text.strip().splitlines()]
    if lines and lines[0].startswith("Encountered graph break when attempting"):
        lines = lines[1:]
    lines = [line for line in lines if line.strip()]
    entry = registry().get(gb_id or "", {})
    gb_type = entry.get("Gb_type") or (lines[0].strip() if lines else "graph break")
    explanation: list[str] = []
    hints: list[str] = []
    current: list[str] | None = None
    for line in lines[1:]:
        stripped = line.strip()
        if stripped.startswith("Explanation:"):
            current = explanation
            stripped = stripped.removeprefix("Explanation:").strip()
        elif stripped.startswith("Hint:"):
            hints.append(stripped.removeprefix("Hint:").strip())
            current = None
            continue
        elif stripped.startswith(("Developer debug context", "For more details")):
            current = None
        if current is not None:
            current.append(stripped)
    return Segment(
        gb_id=gb_id,
        gb_type=gb_type,
        explanation=" ".join(explanation) or entry.get("Explanation", ""),
        hints=tuple(hints) or tuple(entry.get("Hints", ())),
        url=link.group(0) if link else None,
    )


def _columns(source: str, carets: str | None) -> tuple[int | None, int | None]:
    if carets is None or not set(carets.strip()) <= set("^~"):
        return None, None
    marked = [i for i, char in enumerate(carets[4:]) if char in "^~"]
    if not marked:
        return None, None
    return marked[0] + 1, marked[-1] + 2  # relative to the stripped source line


def _frames(traceback_text: str) -> tuple[Frame, ...]:
    frames: list[Frame] = []
    lines = traceback_text.splitlines()
    for index, line in enumerate(lines):
        match = _FRAME.match(line)
        if not match:
            continue
        source = lines[index + 1] if index + 1 < len(lines) else None
        carets = lines[index + 2] if index + 2 < len(lines) else None
        start, end = _columns(source or "", carets)
        frames.append(Frame(match["path"], int(match["line"]), match["function"], start, end))
    return tuple(frames)


# A resume function's frame as a traceback names it (path, function, line) -> its true place.
ResumePlaces = dict[tuple[str, str, int], linetable.Position]


def _resume_places() -> ResumePlaces:
    """Where the resume functions in the stack of the graph break Dynamo is logging really
    are: the frame it traces (at the instruction it broke on) and those running below it."""
    running: list[tuple[types.CodeType, int, int]] = []  # code, offset, line Dynamo names
    tracing = getattr(symbolic_convert.tls, "current_tx", None)
    if tracing is not None:
        offset = _code_offset(tracing.f_code, tracing.current_instruction)
        if offset is not None:
            running.append((tracing.f_code, offset, tracing.lineno))
    frame: types.FrameType | None = sys._getframe()
    while frame is not None:
        if frame.f_lineno is not None:
            running.append((frame.f_code, frame.f_lasti, frame.f_lineno))
        frame = frame.f_back
    places: ResumePlaces = {}
    for code, offset, line in running:
        resumed = resumed_function(code.co_name)
        place = linetable.source_position(code, offset) if resumed else None
        if resumed and place:
            # Dynamo's tracebacks name a resume function's frame after the function it resumes.
            for name in (code.co_name, resumed):  # the traced frame's first: it broke
                places.setdefault((code.co_filename, name, line), place)
    return places


_CONVERT_FRAME = convert_frame.__file__
_EVAL_FRAME = eval_frame.__file__


@dataclass(frozen=True, slots=True)
class CompiledFrame:
    """The frame Dynamo compiles where it logs a graph break, at the line it reached, and the
    number of frames that called it (those its traceback of the break lists first)."""

    frame: Frame
    callers: int


def _compiled_frame() -> CompiledFrame | None:
    """The frame Dynamo compiles, from its translator on the stack. Its traceback of a break
    inside a call it inlines can leave that frame out (a module's `forward` calling
    `self.ctc(...)`, whose own `forward` breaks): the break then seems to be in torch."""
    compiled = None
    callers = 0
    frame: types.FrameType | None = sys._getframe()
    while frame is not None:
        path = frame.f_code.co_filename
        translator = frame.f_locals.get("self")
        if compiled is None and isinstance(translator, symbolic_convert.InstructionTranslator):
            compiled = translator
        # As Dynamo lists the stack above it (`exc.filter_stack`): the frames that called the
        # outermost of its `convert_frame` ones, less its `eval_frame` ones.
        if path == _CONVERT_FRAME:
            callers = 0
        elif path != _EVAL_FRAME:
            callers += 1
        frame = frame.f_back
    if compiled is None or compiled.lineno is None:
        return None
    code = compiled.f_code
    return CompiledFrame(
        Frame(code.co_filename, compiled.lineno, code.co_name, None, None), callers
    )


def _code_offset(code: types.CodeType, instruction: Any) -> int | None:
    """The offset in `code` of the instruction Dynamo traces. Dynamo numbers the instructions
    it cleans up anew (EXTENDED_ARG dropped, `super()` made explicit): this is the one with
    the same operation and position nearest Dynamo's offset."""
    same = [
        i.offset
        for i in dis.get_instructions(code)
        if (i.opname, i.positions) == (instruction.opname, instruction.positions)
    ]
    return min(same, key=lambda offset: abs(offset - (instruction.offset or 0)), default=None)


def _in_source(frame: Frame, places: ResumePlaces) -> Frame:
    """`frame` at its true place when it is a resume function's whose line Dynamo misnamed;
    columns as carets under the true line would give them."""
    place = places.get((frame.path, frame.function, frame.line))
    if place is None or place.line == frame.line:
        return frame
    text = linecache.getline(frame.path, place.line).encode()
    indent = len(text) - len(text.lstrip())

    def column(offset: int | None) -> int | None:
        return None if offset is None else len(text[indent:offset].decode(errors="ignore")) + 1

    one_line = place.end_line == place.line and place.column is not None
    start, end = (column(place.column), column(place.end_column)) if one_line else (None, None)
    return dataclasses.replace(
        frame, line=place.line, column=start, end_column=end, dynamo_line=frame.line
    )


def parse_break_reason(
    payload: str, places: ResumePlaces | None = None, compiled: CompiledFrame | None = None
) -> RawBreak:
    """The `dynamo_graph_break_reason` artifact: header, reason text and user traceback, its
    resume functions' frames moved to the true `places`, and the `compiled` frame put back
    after its callers where the traceback leaves it out (`_compiled_frame`)."""
    body, _, user_code = payload.partition("\nUser code traceback:\n")
    user_code = user_code.split("\nTraceback (most recent call last):", 1)[0]
    reason = body.partition("Graph Break Reason: ")[2] or body
    reason = reason.split("\nStack variable source attribution:", 1)[0].strip()
    segments = tuple(_segment(part) for part in reason.split(_NESTED))
    frames = tuple(_in_source(frame, places or {}) for frame in _frames(user_code))
    if compiled is not None and compiled.callers < len(frames):
        named = resumed_function(compiled.frame.function) or compiled.frame.function
        if not any(f.path == compiled.frame.path and f.function == named for f in frames):
            restored = dataclasses.replace(compiled.frame, function=named)
            at = compiled.callers
            frames = (*frames[:at], _in_source(restored, places or {}), *frames[at:])
    header = _HEADER.search(body)
    if header and (not frames or frames[-1].path != header["path"]):
        frames += (Frame(header["path"], int(header["line"]), "?", None, None),)
    return RawBreak(frames, segments, _SKIPPED in reason, reason)


class _TraceHandler(logging.Handler):
    def __init__(self, result: Capture) -> None:
        super().__init__(logging.DEBUG)
        self.payloads: list[str] = []
        self.resume_places: list[ResumePlaces] = []  # one per payload
        self.compiled: list[CompiledFrame | None] = []  # one per payload
        self.result = result

    def emit(self, record: logging.LogRecord) -> None:
        metadata = getattr(record, "metadata", None) or {}
        artifact = metadata.get("artifact") or {}
        if artifact.get("name") == "dynamo_graph_break_reason":
            self.payloads.append(getattr(record, "payload", "") or "")
            self.resume_places.append(_resume_places())
            self.compiled.append(_compiled_frame())
            compile_id = (metadata.get("frame_id"), metadata.get("frame_compile_id"))
            self.result.break_compiles.append(self.result.seen(compile_id))
        elif "dynamo_cpp_guards_str" in metadata:
            self.result.guards.extend(_guard_expressions(getattr(record, "payload", "") or ""))


# `| | +- EQUALS_MATCH: L['n'] == 3   # for i in range(n):  # model.py:4 in total`
_GUARD_LINE = re.compile(r"\+- [A-Z][A-Z_]*: (?P<guard>.*?)(?:\s+# .*)?$")


def _guard_expressions(tree: str) -> list[str]:
    """The guards of Dynamo's guard tree as it logs it, without the source each quotes."""
    return [match["guard"] for line in tree.splitlines() if (match := _GUARD_LINE.search(line))]


@contextlib.contextmanager
def _knob(name: str | None) -> Iterator[None]:
    if name is None:
        yield
        return
    with torch._dynamo.config.patch({name: True}):
        yield


@contextlib.contextmanager
def state_kept() -> Iterator[None]:
    """Dynamo's config, counters and compilation metrics as they were before: a capture in
    the user's own process (a test) must not change what the rest of that process reads.
    Compiled code caches are not kept: `capture` resets them, and a function compiled
    earlier compiles again on its next call, with the same result."""
    config = torch._dynamo.config.save_config()
    counters = copy.deepcopy(dynamo_utils.counters)
    metrics = list(dynamo_utils.get_compilation_metrics())
    try:
        yield
    finally:
        with warnings.catch_warnings():  # loading sets deprecated options too, which warn
            warnings.simplefilter("ignore", FutureWarning)
            torch._dynamo.config.load_config(config)
        dynamo_utils.counters.clear()
        dynamo_utils.counters.update(counters)
        dynamo_utils.clear_compilation_metrics()
        dynamo_utils._compilation_metrics.extend(metrics)


# Dynamo times each guard set it builds once, after flushing the CPU caches, for the
# `guard_latency_us` metric alone (torch/_dynamo/guards.py): about a quarter of a small
# model's compile time, and a number breaklint never reads.
_GUARD_LATENCY_PROFILE = "profile_guard_manager"


@contextlib.contextmanager
def _guard_latency_unmeasured() -> Iterator[None]:
    """Dynamo compiles as it does, without timing each new guard set."""
    measure = getattr(dynamo_guards, _GUARD_LATENCY_PROFILE, None)
    if measure is None:  # a torch that does not profile its guards
        yield
        return
    setattr(dynamo_guards, _GUARD_LATENCY_PROFILE, lambda *args: 0.0)
    try:
        yield
    finally:
        setattr(dynamo_guards, _GUARD_LATENCY_PROFILE, measure)


def _current_compile() -> CompileId:
    current = torch._guards.CompileContext.current_compile_id()
    return (None, None) if current is None else (current.frame_id, current.frame_compile_id)


def capture(
    call: Callable[[Callable[..., Any]], Any],
    target: Any,
    knob: str | None = None,
    edit: Callable[[int, torch.fx.GraphModule], None] | None = None,
    *,
    then: Callable[[Callable[..., Any], tuple[str, ...]], Any] | None = None,
    recompile_limit: int | None = None,
    again: Callable[[Callable[..., Any]], Any] | None = None,
) -> Capture:
    """Compile `target` with a recording backend after a reset, run `call(compiled)`, and
    read every channel that reports breaks. `edit(n, gm)` may change the n-th graph (1-based)
    after it is recorded and before it runs; it recompiles what it changes. `again`: a
    second call, `again(compiled)`, whose breaks are recorded too, those it alone met marked
    `later_call` (the first call may have changed what the next compiles: a flag set by a
    module that initialises itself); the graphs are the first call's. With `then`, run
    `then(compiled, guards)` on the same compiled target afterwards, given the guards of the
    first call's compiles (its graphs and breaks are not recorded, nor edited), and count what
    every call compiled, under `recompile_limit` if given."""
    result = Capture()
    first_done = False

    def record(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        if first_done:  # a later call: counted from the compilation metrics only
            return gm.forward
        result.ops_per_graph.append(sum(1 for node in gm.graph.nodes if node.op in _OPS))
        result.graphs.append(gm)
        result.lifted.append(_lifted(gm))
        result.owners.append(_frame_self())
        result.graph_compiles.append(result.seen(_current_compile()))
        if edit is not None:
            edit(len(result.graphs), gm)
        return gm.forward

    torch._dynamo.reset()
    dynamo_utils.clear_compilation_metrics()
    handler = _TraceHandler(result)
    logger = logging.getLogger("torch.__trace")
    saved = (logger.level, logger.propagate, logger.handlers)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    # Ours alone: the DEBUG records turned on here must not reach the handlers a host process
    # put there (pytest's log capture, torch's own trace file).
    logger.handlers = [handler]
    limit = {} if recompile_limit is None else {"recompile_limit": recompile_limit}
    try:
        with _knob(knob), torch._dynamo.config.patch(limit), _guard_latency_unmeasured():
            compiled = torch.compile(target, backend=record)
            call(compiled)
            first_metrics = recorded_metrics = len(dynamo_utils.get_compilation_metrics())
            first_done = True
            first_logged = len(handler.payloads)
            if again is not None:
                # A second call the model cannot take shows what it reached before it raised.
                with contextlib.suppress(Exception):
                    again(compiled)
                recorded_metrics = len(dynamo_utils.get_compilation_metrics())
            # No handler while `then` runs, whose records are not read: Dynamo then builds
            # no trace payloads (graphs, guards, bytecode as text: a tenth of each compile).
            logger.handlers = []
            if then is not None:
                then(compiled, tuple(result.guards))
    finally:
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
        logger.handlers = saved[2]
        torch._dynamo.reset()
    result.breaks = [
        dataclasses.replace(
            parse_break_reason(payload, places, compiled), later_call=index >= first_logged
        )
        for index, (payload, places, compiled) in enumerate(
            zip(handler.payloads, handler.resume_places, handler.compiled, strict=True)
        )
    ]
    # Compilation metrics name a failing frame's line as Dynamo does.
    seen = {
        (b.frames[-1].path, b.frames[-1].dynamo_line or b.frames[-1].line)
        for b in result.breaks
        if b.frames
    }
    every = dynamo_utils.get_compilation_metrics()
    if then is not None:
        result.compiles = _compiles(every)
    for index, metrics in enumerate(every[:recorded_metrics]):
        if metrics.fail_type is None:
            continue
        later = index >= first_metrics
        result.frames_skipped += not later
        where = (metrics.fail_user_frame_filename, metrics.fail_user_frame_lineno)
        if where[0] and where[1] and where not in seen:  # a skip the trace did not log
            reason = metrics.fail_reason or metrics.fail_type
            frame = Frame(where[0], int(where[1]), metrics.co_name or "?", None, None)
            result.breaks.append(RawBreak((frame,), (_segment(reason),), True, reason, later))
    return result


# `0/1: n == 2  # for i in range(n):  # s/model.py:4 in total (...)`: the quoted source line
# may hold comments of its own, so the place is the last `  # path:line in function`.
_RECOMPILE = re.compile(
    r"^\d+/\d+: (?P<guard>.*?)"
    r"(?:\s+# (?P<source>.*)  # (?P<where>\S+:\d+ in \S+)(?: \(.*\))?)?$"
)
_WHERE = re.compile(r"^(?P<path>\S+):(?P<line>\d+) in (?P<function>\S+)")
_LIMIT = "recompile limit exceeded"


def _compiles(every: list[Any]) -> Compiles:
    """Compilations, failed guards and whether the recompile limit was hit, from
    compilation metrics (each recompilation records the guard that failed first)."""
    failures = []
    for index, metrics in enumerate(every):
        if metrics.recompile_reason:
            failures.append(_guard_failure(metrics, index))
    return Compiles(
        compiles=sum(1 for m in every if m.fail_type is None),
        recompiles=sum(1 for m in every if m.fail_type is None and m.recompile_reason),
        failures=tuple(failures),
        limit_hit=any(f.limit_hit for f in failures),
    )


def compilations() -> int:
    """How many compilations Dynamo has recorded since the capture began."""
    return len(dynamo_utils.get_compilation_metrics())


def _guard_failure(metrics: Any, index: int) -> GuardFailure:
    reason: str = metrics.recompile_reason
    first = reason.splitlines()[0].strip()
    match = _RECOMPILE.match(first)
    guard = (match["guard"] if match else first).strip()
    where = _WHERE.match(match["where"] or "") if match else None
    stack = _frames(reason.partition("User stack trace:")[2])
    path = stack[-1].path if stack else where["path"] if where else None
    return GuardFailure(
        guard=guard,
        source=match["source"].strip() if match and match["source"] else None,
        path=path,
        line=int(where["line"]) if where else stack[-1].line if stack else None,
        function=where["function"] if where else None,
        frame_path=metrics.co_filename,
        frame_line=metrics.co_firstlineno,
        frame_function=metrics.co_name,
        reason=reason,
        limit_hit=_LIMIT in (metrics.fail_reason or "").lower(),
        index=index,
    )


_MARKS = ("_dynamo_", "_has_dynamo_")  # what mark_static and mark_dynamic set on a tensor


def resized(tensor: torch.Tensor, sizes: dict[int, int]) -> torch.Tensor:
    """`tensor` with every dimension of a size in `sizes` made the size it maps to, by
    repeating its entries (token ids stay valid ids, masks stay masks), keeping what
    `torch._dynamo.mark_static` and `mark_dynamic` set on it."""
    result = tensor.detach()
    for dim, length in enumerate(tensor.shape):
        if length in sizes:
            index = torch.arange(sizes[length], device=tensor.device) % length
            result = result.index_select(dim, index)
    result.requires_grad_(tensor.requires_grad)
    for name, value in vars(tensor).items():
        if name.startswith(_MARKS):
            setattr(result, name, copy.copy(value))
    return result


def config_settings(names: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `names` that this torch's `torch._dynamo.config` has."""
    return tuple(name for name in names if hasattr(torch._dynamo.config, name))


# Inductor logs each reason it runs a graph without CUDA graphs to this artifact logger, at
# WARNING, as "skipping cudagraphs due to REASON", most followed by ". Found from : " and the
# user stack of the node at fault (torch 2.11 and 2.13, `torch._inductor.cudagraph_utils`).
_CUDAGRAPHS_LOGGER = "torch._inductor.cudagraph_utils.__cudagraphs"
_CUDAGRAPH_SKIP = re.compile(
    r"^skipping cudagraphs? due to (?P<reason>.*?)(?:\. Found from :|$)", re.S
)
# CUDA graph trees run a new graph eagerly once (warm-up), record it on the second call and
# replay it from the third: the mutation check runs when a graph is recorded.
_CUDAGRAPH_CALLS = 3
# What removes each reason, by the words that start it.
_CUDAGRAPH_HINTS = (
    ("mutated inputs", "mutate a copy (`x = x.clone()`) or a buffer or parameter the module owns"),
    ("cpu device", "keep the compiled region's tensors on the GPU: move host reads out of it"),
    ("multiple devices", "keep the compiled region's tensors on one GPU"),
    ("incompatible op", "move the op out of the compiled region, or pass its result in"),
)


class _Messages(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def cudagraph_skips(call: Callable[[Callable[..., Any]], Any], target: Any) -> list[RawBreak]:
    """Compile `target` with mode="reduce-overhead" (Inductor, CUDA graph trees) after a reset,
    run `call(compiled)` until its graphs are recorded, and return every reason Inductor gave
    for running a graph without CUDA graphs, at the user frames it names. CUDA only."""
    import torch._inductor.cudagraph_utils  # creates the logger read here

    handler = _Messages()
    logger = logging.getLogger(_CUDAGRAPHS_LOGGER)
    saved = (logger.level, logger.propagate, logger.handlers)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    logger.handlers = [handler]
    torch._dynamo.reset()
    try:
        compiled = torch.compile(target, mode="reduce-overhead")
        for _ in range(_CUDAGRAPH_CALLS):
            call(compiled)
        torch.cuda.synchronize()
    finally:
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
        logger.handlers = saved[2]
        torch._dynamo.reset()
    skips = [parse_cudagraph_skip(message) for message in dict.fromkeys(handler.messages)]
    return [skip for skip in skips if skip is not None]


def parse_cudagraph_skip(message: str) -> RawBreak | None:
    """One "skipping cudagraphs due to ..." message, its stack as frames; None for another
    message of that logger (recording, warm-up, the distinct-sizes warning)."""
    match = _CUDAGRAPH_SKIP.match(message)
    if match is None:
        return None
    reason = match["reason"].strip()
    # The stack is indented one space more than a traceback's frames.
    stack = "\n".join(
        line[1:] if line.startswith("   File ") else line for line in message.splitlines()
    )
    hints = tuple(hint for start, hint in _CUDAGRAPH_HINTS if reason.startswith(start))
    segment = Segment(None, "CUDA graphs skipped", reason, hints, None)
    return RawBreak(_frames(stack), (segment,), False, message)


def generator_skip(code: types.CodeType) -> RawBreak:
    """The skip of a compiled generator function. Its body runs only when the generator is
    iterated, after the compiled call returned, so Dynamo never sees the frame and logs nothing;
    Dynamo's own message for such a frame is "Attempt to trace generator". Placed at the first
    `yield`, where the body first hands a value back eagerly."""
    yields = [
        i.positions.lineno
        for i in dis.get_instructions(code)
        if i.opname == "YIELD_VALUE" and i.positions is not None and i.positions.lineno
    ]
    line = yields[0] if yields else code.co_firstlineno
    gb_type = "Attempt to trace generator"
    gb_id = next((gb for gb, entry in registry().items() if entry.get("Gb_type") == gb_type), None)
    entry = registry().get(gb_id or "", {})
    segment = Segment(
        gb_id=gb_id,
        gb_type=gb_type,
        explanation=entry.get("Explanation", "Generators cannot be compiled directly."),
        hints=tuple(entry.get("Hints", ())),
        url=None,
    )
    frame = Frame(code.co_filename, line or code.co_firstlineno, code.co_name, None, None)
    return RawBreak((frame,), (segment,), True, f"{gb_type}: {code.co_qualname} ({_SKIPPED})")


def is_library(path: str) -> bool:
    return path.startswith(TORCH_DIR) or "site-packages" in path or "/lib/python3" in path


_MODULE_INDEX = re.compile(r"\._modules\[['\"](?P<name>[^'\"]+)['\"]\]|\[(?P<index>\d+)\]")


def _module_path(key: str, source: str, names: dict[int, str]) -> str | None:
    """A `nn_module_stack` entry as the user writes the module: `transformer.h.0.attn`. The
    key starts with the module's id, which the root's `named_modules()` maps to its path
    from the root even for a frame Dynamo compiled on its own; the source string
    (`L['self'].h.0.attn`, relative to the compiled frame) is the fallback."""
    digits = re.match(r"\d+", key)
    if digits and int(digits.group()) in names:
        return names[int(digits.group())] or None
    path = _MODULE_INDEX.sub(lambda m: "." + (m["name"] or m["index"]), source)
    path = re.sub(r"^L\[['\"]self['\"]\]\.?", "", path)
    return path or None


def _frame_self() -> Any:
    """The `self` of the frame being compiled. A resume function (`__resume_at_N`) keeps
    only the locals it still uses; its caller is the frame it resumes, which holds `self`."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    tx = InstructionTranslator.current_tx()
    if tx is None:
        return None
    if "self" in tx.f_locals:
        return tx.f_locals["self"]
    code = tx.f_code
    frame: types.FrameType | None = sys._getframe()
    while frame is not None:
        resumed = f"torch_dynamo_resume_in_{frame.f_code.co_name}_at_"
        if code.co_name.startswith(resumed) and frame.f_code.co_filename == code.co_filename:
            return frame.f_locals.get("self")
        frame = frame.f_back
    return None


def _lifted(gm: torch.fx.GraphModule) -> frozenset[str]:
    lifted = set()
    for node in gm.graph.nodes:
        source = getattr(node.meta.get("grapharg"), "source", None)
        name = str(getattr(source, "name", ""))
        if node.op == "placeholder" and ("._parameters[" in name or "._buffers[" in name):
            lifted.add(node.name)
    return frozenset(lifted)


def graph_nodes(
    gm: torch.fx.GraphModule, names: dict[int, str], lifted: frozenset[str], owner: Any
) -> tuple[GraphNode, ...]:
    """The nodes of a captured graph, read from the metadata Dynamo leaves on them
    (`stack_trace`, `nn_module_stack`); `names` maps id(module) to its path, `lifted` names
    the placeholders that hold parameters and buffers, `owner` is the compiled frame's `self`."""
    path = names.get(id(owner)) if owner is not None else None
    parts = path.split(".") if path else []
    # Every node of a submodule's own frame lies in that module and in its ancestors.
    enclosing = [".".join(parts[: i + 1]) for i in range(len(parts))]
    nodes = []
    for node in gm.graph.nodes:
        lines = (node.meta.get("stack_trace") or "").splitlines()
        starts = [i for i, line in enumerate(lines) if _FRAME.match(line)]
        last = _FRAME.match(lines[starts[-1]]) if starts else None
        text = lines[starts[-1] + 1].strip() if starts and starts[-1] + 1 < len(lines) else None
        modules: list[str] = list(enclosing)
        for key, (source, _) in (node.meta.get("nn_module_stack") or {}).items():
            path = _module_path(str(key), str(source), names)
            if path and path not in modules:
                modules.append(path)
        nodes.append(
            GraphNode(
                name=node.name,
                op=node.op,
                target=_short_target(node),
                path=last["path"] if last else None,
                line=int(last["line"]) if last else None,
                source=text or None,
                modules=tuple(modules),
                lifted=node.name in lifted,
            )
        )
    return tuple(nodes)


def _short_target(node: torch.fx.Node) -> str:
    if node.op == "call_method":
        return f".{node.target}"
    if node.op == "call_function":
        return getattr(node.target, "__name__", None) or str(node.target)
    return str(node.target)


@dataclass(frozen=True, slots=True)
class TorchDefaults:
    """The process-wide torch state a probe may change and the next one must not inherit."""

    dtype: torch.dtype
    device: torch.device
    grad_enabled: bool
    dynamo_config: dict[str, Any]


def torch_defaults() -> TorchDefaults:
    return TorchDefaults(
        torch.get_default_dtype(),
        torch.get_default_device(),
        torch.is_grad_enabled(),
        torch._dynamo.config.get_config_copy(),
    )


def restore_torch_defaults(saved: TorchDefaults) -> None:
    torch.set_default_dtype(saved.dtype)
    if torch.get_default_device() != saved.device:
        torch.set_default_device(None)  # the state a fresh process starts in
        if torch.get_default_device() != saved.device:
            torch.set_default_device(saved.device)
    torch.set_grad_enabled(saved.grad_enabled)
    config = torch._dynamo.config
    # Only what changed: setting every key again warns about the deprecated ones.
    changed = {k: v for k, v in saved.dynamo_config.items() if getattr(config, k, v) != v}
    if changed:
        config.load_config(changed)


def is_out_of_memory(error: BaseException) -> bool:
    """Whether an exception is an allocation that failed: Python's MemoryError, torch's
    OutOfMemoryError (CUDA), or its CPU allocator's error, which is a plain RuntimeError."""
    if isinstance(error, MemoryError | torch.OutOfMemoryError):
        return True
    return isinstance(error, RuntimeError) and "DefaultCPUAllocator: can't allocate" in str(error)
