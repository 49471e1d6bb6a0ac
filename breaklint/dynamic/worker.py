"""A worker process, forked by the fork server with torch imported: runs probe after probe
sent by the supervisor.

`serve(LOG, DEVICE, MEMORY_MB)`. Requests arrive on stdin; results leave on the original
stdout. The probes' own output (and torch's warnings) go to LOG, so user
code that prints cannot corrupt the protocol. Every probe starts from the same process state.
"""

from __future__ import annotations

import contextlib
import inspect
import linecache
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any, TypeAlias

from breaklint.calls import Call
from breaklint.dynamic import processes, variants
from breaklint.dynamic.attribution import attribute, linted_file
from breaklint.dynamic.model import (
    Break,
    GraphRequest,
    GraphResult,
    OutputsCheck,
    Probe,
    ProbeRequest,
    ProbeResult,
    ProbeStatus,
    RecompileSummary,
    ResumeCount,
    Span,
    Watch,
    WorkerFailed,
    WorkerReady,
    each_skip_once,
)
from breaklint.dynamic.probe_call import failure, needs_the_cpu, one_line, planned_call
from breaklint.dynamic.protocol import KEY_BYTES, CorruptFrame, read_exactly, receive, send
from breaklint.dynamic.variant_mode import VariantMode
from breaklint.findings import BreakKind, Range
from breaklint.source import char_offset

if TYPE_CHECKING:
    from breaklint.dynamic.torch_shim import TorchDefaults

# What `sys.settrace` takes: called on an event, it gives the tracer for the frame's next ones.
Tracer: TypeAlias = "Callable[[FrameType, str, Any], Tracer | None]"


_TIMERS = (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)


@dataclass(frozen=True, slots=True)
class ProcessState:
    """What every probe starts from: the worker's state once torch is imported. A probe may
    change any of it (`os.chdir`, `sys.path`, the environment, torch's defaults, Dynamo's
    config, signal handlers, alarms and timers, child processes), and the next probe in the
    same worker must not inherit that."""

    cwd: str
    path: tuple[str, ...]
    environ: dict[str, str]
    torch_defaults: TorchDefaults
    handlers: dict[signal.Signals, Any]  # the Python-level handler of each signal
    blocked: frozenset[signal.Signals | int]
    children: frozenset[int]  # the worker's own: a probe's children do not outlive it

    @classmethod
    def capture(cls) -> ProcessState:
        from breaklint.dynamic import torch_shim

        handlers = {
            number: handler
            for number in signal.valid_signals()
            if isinstance(number, signal.Signals)
            and (handler := signal.getsignal(number)) is not None
        }
        return cls(
            os.getcwd(),
            tuple(sys.path),
            dict(os.environ),
            torch_shim.torch_defaults(),
            handlers,
            frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, [])),
            frozenset(processes.descendants(os.getpid())),
        )

    def restore(self) -> None:
        from breaklint.dynamic import torch_shim

        self.restore_process()
        os.chdir(self.cwd)
        sys.path[:] = self.path
        if os.environ != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        torch_shim.restore_torch_defaults(self.torch_defaults)

    def restore_process(self) -> None:
        """What a probe can leave running after it returns: alarms and timers (cancelled
        before their handlers go), signal handlers and mask, and the processes it started."""
        signal.alarm(0)
        for timer in _TIMERS:
            signal.setitimer(timer, 0)
        for number, handler in self.handlers.items():
            if signal.getsignal(number) is not handler:
                with contextlib.suppress(OSError, ValueError):  # e.g. SIGKILL cannot be set
                    signal.signal(number, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self.blocked)
        processes.kill_descendants(os.getpid(), keep=self.children)


def _limit_memory(megabytes: int) -> None:
    """Cap the worker's data (heap and private mappings, where tensors live on the CPU): an
    allocation past it fails in the probe instead of exhausting the machine. Address space
    is left alone: CUDA reserves far more of it than it uses."""
    if megabytes > 0:
        limit = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


@dataclass(slots=True)
class _Coverage:
    """What one eager run executed in the linted files."""

    executed: set[tuple[str, int]] = field(default_factory=set)  # (real path, line)
    instrumented: set[Span] = field(default_factory=set)
    reached: set[Span] = field(default_factory=set)


def _instructions_in_spans(code: CodeType, spans: list[Span]) -> dict[int, tuple[Span, ...]]:
    """The watched spans holding each instruction of `code`, by instruction offset."""
    inside: dict[int, tuple[Span, ...]] = {}
    numbers = [line for *_, line in code.co_lines() if line is not None]
    if not numbers:
        return inside
    first_line, last_line = min(numbers), max(numbers)
    spans = [s for s in spans if first_line <= s.range.end_line and s.range.line <= last_line]
    if not spans:  # most functions hold no finding: no position to read
        return inside
    for index, (line, end_line, start, end) in enumerate(code.co_positions()):
        if line is None or end_line is None or start is None or end is None:
            continue
        first, last = (
            linecache.getline(code.co_filename, line),
            linecache.getline(code.co_filename, end_line),
        )
        position = (line, char_offset(first, start) + 1, end_line, char_offset(last, end) + 1)
        holding = tuple(span for span in spans if span.range.holds(Range(*position)))
        if holding:
            inside[index * 2] = holding  # one position per 2-byte code unit
    return inside


def _traced_run(call: Callable[[], Any], watch: Watch) -> tuple[_Coverage, Any]:
    """Run `call` eagerly, recording the lines it executes in the linted files and which
    watched spans ran; a generator it returns is run to the end too. Returns what was
    covered and what `call` returned."""
    coverage = _Coverage()
    inside: dict[str, str | None] = {}
    spans_by_path: dict[str, list[Span]] = {}
    for span in watch.spans:
        spans_by_path.setdefault(span.path, []).append(span)
    offsets: dict[CodeType, dict[int, tuple[Span, ...]]] = {}

    def lines(frame: FrameType, event: str, arg: Any) -> Tracer | None:
        if event == "line":
            path = inside[frame.f_code.co_filename]
            assert path is not None  # only functions of linted files are traced
            coverage.executed.add((path, frame.f_lineno))
        return lines

    def on_call(frame: FrameType, event: str, arg: Any) -> Tracer | None:
        code = frame.f_code
        filename = code.co_filename
        if filename not in inside:
            inside[filename] = linted_file(filename, watch.linted)
        path = inside[filename]
        if path is None:
            return None
        if code not in offsets:
            offsets[code] = _instructions_in_spans(code, spans_by_path.get(path, []))
            coverage.instrumented.update(s for held in offsets[code].values() for s in held)
        held_at = offsets[code]
        if not held_at:
            return lines

        def instructions(frame: FrameType, event: str, arg: Any) -> Tracer | None:
            if event == "opcode":
                coverage.reached.update(held_at.get(frame.f_lasti, ()))
            elif event == "line":
                coverage.executed.add((path, frame.f_lineno))
            return instructions

        frame.f_trace_opcodes = True  # opcode events only in functions holding a watched span
        return instructions

    sys.settrace(on_call)
    try:
        returned = call()
        if inspect.isgenerator(returned):
            list(returned)
    finally:
        sys.settrace(None)
    return coverage, returned


@dataclass(frozen=True, slots=True)
class Observed:
    """What Dynamo did on one compiled call: its graphs and its breaks, attributed."""

    ops_per_graph: tuple[int, ...]
    frames_skipped: int
    breaks: tuple[Break, ...]
    # With variant calls (`observe(varied=...)`): what every call compiled, the guards that
    # failed on every new value as RECOMPILES breaks, and the resumes after each break.
    recompiles: RecompileSummary | None = None
    recompile_breaks: tuple[Break, ...] = ()
    resumes: tuple[ResumeCount, ...] = ()

    def with_generator_skip(self, generator: CodeType, request: ProbeRequest) -> Observed:
        """With the skip of the generator the compiled call returned: Dynamo never sees its
        frame, so no channel reports it."""
        from breaklint.dynamic import torch_shim

        skip = attribute(torch_shim.generator_skip(generator), request)
        if skip is None or any(b.key() == skip.key() for b in self.breaks):
            return self
        return replace(self, breaks=(*self.breaks, skip))

    def result(self, probe: Probe, wall_s: float, coverage: _Coverage | None = None) -> ProbeResult:
        """The probe's result, with what its eager run executed when it was traced."""
        ran = coverage or _Coverage()
        return ProbeResult(
            probe,
            ProbeStatus.OK,
            wall_s,
            graphs=len(self.ops_per_graph),
            ops_per_graph=self.ops_per_graph,
            frames_skipped=self.frames_skipped,
            breaks=self.breaks,
            executed=frozenset(ran.executed),
            instrumented=frozenset(ran.instrumented),
            reached=frozenset(ran.reached),
            recompiles=self.recompiles,
            recompile_breaks=self.recompile_breaks,
            resumes=self.resumes,
        )


@dataclass(frozen=True, slots=True)
class Compiling:
    """One compiled call to observe: `call(compiled)` calls the compiled `target`."""

    target: Any
    call: Callable[[Callable[..., Any]], Any]
    # The call made second, whose breaks are kept too (None: the first call alone).
    again: Callable[[Callable[..., Any]], Any] | None = None


def observe(
    made: Callable[[], Compiling],
    request: ProbeRequest,
    *,
    varied: variants.VariantRun | None = None,
    recompile_limit: int | None = None,
) -> Observed:
    """Compile the target `made()` gives, run its call and attribute every break; a break that
    goes away under one of torch_shim.KNOBS says so. Each capture calls `made()`: a probe's
    objects built afresh, so that a rerun under a knob sees what the first compiled call saw
    (a module that initialises itself on its first call breaks there, and only there).
    With a call `again`, the breaks only it meets are kept too (`Evidence.later_call`).
    `varied`: the variant calls to run on the same compiled target after those, whose
    compilations give the recompile summary."""
    from breaklint.dynamic import torch_shim

    first = made()
    captured = torch_shim.capture(
        first.call, first.target, then=varied, recompile_limit=recompile_limit, again=first.again
    )
    recompiles: RecompileSummary | None = None
    recompile_breaks: tuple[Break, ...] = ()
    if varied is not None:
        assert captured.compiles is not None  # given `then`
        recompiles, recompile_breaks = variants.summarise(
            captured.compiles, varied, request.watch.linted, request.probe
        )
    breaks: dict[tuple[str, str, int, str], Break] = {}
    for raw in captured.breaks:
        item = attribute(raw, request)
        if item is not None:
            breaks.setdefault(item.key(), item)
    # A break "goes away with a knob" when, rerun with it, nothing breaks on that line. Only
    # breaks whose message names the knob are rerun: Dynamo names it where it can help.
    lines_left = {(b.path, b.line) for b in breaks.values()}
    for knob in torch_shim.KNOBS:
        named = {key for key, item in breaks.items() if _names(item, knob)}
        if not named:
            continue
        try:
            fresh = made()
            rerun = torch_shim.capture(fresh.call, fresh.target, knob, again=fresh.again)
        except Exception:  # Dynamo failed under the knob: it does not help, the breaks stand
            continue
        still = {(b.path, b.line) for r in rerun.breaks if (b := attribute(r, request))}
        for key in named:
            item = breaks[key]
            if (item.path, item.line) in lines_left and (item.path, item.line) not in still:
                breaks[key] = replace(item, evidence=replace(item.evidence, config_knob=knob))
        lines_left &= still
    return Observed(
        tuple(captured.ops_per_graph),
        captured.frames_skipped,
        tuple(breaks.values()),
        recompiles=recompiles,
        recompile_breaks=recompile_breaks,
        resumes=varied.resume_counts() if varied is not None else (),
    )


def _names(item: Break, knob: str) -> bool:
    """Whether Dynamo's message for a break names the config `knob`."""
    evidence = item.evidence
    return any(knob in text for text in (evidence.reason, evidence.explanation, *evidence.hints))


def run_probe(
    request: ProbeRequest,
    device: str,
    state: ProcessState,
    memory_mb: int,
    fallback_device: str | None = None,
) -> ProbeResult:
    """The probe run on `device`; with a `fallback_device` (`--device auto` on a GPU), run again
    there when torch refused to mix a tensor the model made on the CPU with `device`'s: code
    written for the CPU (`torch.zeros(n)` in a forward, `.numpy()`) breaks where it breaks on
    the CPU, and the run says which device it fell back from and why."""
    from breaklint.dynamic import torch_shim

    started = time.perf_counter()
    probe = request.probe
    try:
        state.restore()  # inside: a probe that removed the working directory fails the next
        sys.path.insert(0, os.path.dirname(os.path.abspath(probe.path)))  # for its model
        # The compiled call runs first, on objects no call has touched: a user's first compiled
        # call is on fresh objects, and a module that initialises itself on its first forward
        # (a flag, a buffer, k-means) breaks there. Every other run builds the probe's call
        # again, seeded alike: the eager run (coverage, outputs) too, so that it executes what
        # the compiled call did.
        calls = planned_call(probe, device)
        watch = request.watch
        if watch.variants is VariantMode.NONE and calls.calls is None:
            calls.calls = []  # --no-variants: the probe's own calls only
        unused = [calls]

        def made() -> Compiling:
            plan = unused.pop() if unused else planned_call(probe, device)
            # The call after the first shows what the first changed (a flag's guard fails
            # once, and Dynamo compiles the initialised path): the probe's next, or the
            # same call again.
            second = plan.calls[0] if plan.calls else Call(*plan.args, **plan.kwargs)
            return Compiling(
                plan.target,
                lambda compiled: compiled(*plan.args, **plan.kwargs),
                lambda compiled: compiled(*second.args, **second.kwargs),
            )

        guided = watch.variants is VariantMode.GUIDED
        rest = replace(calls, calls=calls.calls[1:]) if calls.calls else calls
        varied = variants.VariantRun(rest, guided, watch.variant_budget_s, calls=2)
        observed = observe(made, request, varied=varied, recompile_limit=calls.recompile_limit)
        eager = planned_call(probe, device)
        coverage, returned = _traced_run(
            lambda: eager.target(*eager.args, **eager.kwargs), request.watch
        )
        outputs_differ = None
        if request.outputs is not None:
            outputs_differ = _check_outputs(returned, request.outputs)
        if inspect.isgenerator(returned):
            observed = observed.with_generator_skip(returned.gi_code, request)
        cudagraph_skips: tuple[Break, ...] = ()
        if watch.cudagraphs and device == "cuda":  # CUDA graphs exist on CUDA only
            cudagraph_skips = _cudagraph_skips(made(), request)
    except BaseException as error:  # the user's code may raise anything, SystemExit included
        raised = one_line(error)
        if fallback_device is not None and needs_the_cpu(error, device):
            again = run_probe(request, fallback_device, state, memory_mb)
            return replace(again, fell_back=f"{device}: {raised}")
        failed = failure(error, device)
        status, message = ProbeStatus.ERROR, failed.error
        if torch_shim.is_out_of_memory(error):
            status = ProbeStatus.OUT_OF_MEMORY
            message = f"ran past the {memory_mb} MB limit (--probe-memory): {message}"
        return ProbeResult(
            probe,
            status,
            time.perf_counter() - started,
            error=message,
            traceback=failed.traceback,
            device=device,
        )
    result = observed.result(probe, time.perf_counter() - started, coverage)
    return replace(
        result, outputs_differ=outputs_differ, device=device, cudagraph_skips=cudagraph_skips
    )


def _cudagraph_skips(fresh: Compiling, request: ProbeRequest) -> tuple[Break, ...]:
    """Where Inductor ran the probe's graphs without CUDA graphs, each reason once."""
    from breaklint.dynamic import torch_shim

    found = (
        attribute(raw, request) for raw in torch_shim.cudagraph_skips(fresh.call, fresh.target)
    )
    return each_skip_once(
        replace(item, evidence=replace(item.evidence, kind=BreakKind.CUDAGRAPHS_SKIPPED))
        for item in found
        if item is not None
    )


def _check_outputs(returned: Any, check: OutputsCheck) -> str | None:
    """Save the eager outputs, or how they differ from those saved (`outputs.difference`: value
    by value, inside containers and objects, NaN equal to NaN, tolerances by dtype)."""
    import torch

    from breaklint.dynamic import outputs

    if inspect.isgenerator(returned):
        return None  # consumed while tracing: nothing left to compare
    if not check.compare:
        with contextlib.suppress(Exception):  # unsaved outputs show when they are compared
            torch.save(outputs.flatten(returned), check.path)
        return None
    try:
        saved = torch.load(check.path, map_location="cpu", weights_only=False)
        differ = outputs.difference(outputs.flatten(returned), saved)
    except Exception as error:  # outputs that cannot be saved or compared prove nothing
        return f"cannot compare the outputs ({type(error).__name__}: {error})"[:300]
    return differ[:300] if differ is not None else None


def _resolve_device(requested: str) -> str:
    import torch

    cuda = torch.cuda.is_available()
    if requested == "cuda" and not cuda:
        raise RuntimeError(
            "CUDA was requested (--device cuda or --cudagraphs) but "
            "torch.cuda.is_available() is False"
        )
    return "cuda" if requested == "cuda" or (requested == "auto" and cuda) else "cpu"


def serve(log_path: str, requested_device: str, memory_mb: int) -> None:
    """A worker's life, forked by the fork server: requests on stdin, results on stdout."""
    _limit_memory(memory_mb)
    processes.become_subreaper()  # a probe's daemons stay below the worker, to be ended
    requests = 0  # stdin: the key, then the supervisor's requests
    key = read_exactly(requests, KEY_BYTES)
    results = os.dup(1)
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    try:
        from breaklint.dynamic import torch_shim

        device = _resolve_device(requested_device)
    except Exception as error:
        send(results, key, WorkerFailed(str(error)))
        return
    # `--device auto` on a GPU falls back to the CPU for a model that makes its tensors there;
    # `--device cuda` asks for CUDA and reports the error with the way out.
    fallback = "cpu" if requested_device == "auto" and device != "cpu" else None
    state = ProcessState.capture()
    send(results, key, WorkerReady(device, torch_shim.version_problem()))
    try:
        while True:
            try:
                request = receive(requests, key)
            except (EOFError, CorruptFrame):
                return
            if isinstance(request, GraphRequest):  # `breaklint graph`: another request
                from breaklint.dynamic.graph import run_graph

                state.restore()
                result: ProbeResult | GraphResult = run_graph(request, device)
            else:
                assert isinstance(request, ProbeRequest), request
                result = run_probe(request, device, state, memory_mb, fallback)
            state.restore_process()  # before its alarm fires or its children outlive it
            send(results, key, result)
    finally:
        processes.kill_descendants(os.getpid())
