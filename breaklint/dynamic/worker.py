"""A worker process: imports torch once, then runs probe after probe sent by the supervisor.

`python -m breaklint.dynamic.worker LOG DEVICE`. Requests arrive on stdin; results leave on
the original stdout. The probes' own output (and torch's warnings) go to LOG, so user code
that prints cannot corrupt the protocol.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import linecache
import os
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from types import CodeType, FrameType, ModuleType
from typing import Any

from breaklint.calls import Call
from breaklint.dynamic import variants
from breaklint.dynamic.bytecode import listing
from breaklint.dynamic.model import (
    Break,
    OutputsCheck,
    Probe,
    ProbeRequest,
    ProbeResult,
    ProbeStatus,
    Span,
    Watch,
    WorkerFailed,
    WorkerReady,
)
from breaklint.dynamic.protocol import receive, send
from breaklint.findings import BreakKind, Evidence
from breaklint.source import char_offset

_TRACEBACK_FRAMES = 6
_BREAKLINT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ProbeError(Exception):
    """The probe itself is wrong (bad return shape): reported without a traceback."""


@cache
def _load(path: str) -> ModuleType:
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so a probe file can import the model next to it
    name = "breaklint_probe_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ProbeError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _unpack(probe: Probe, returned: Any) -> tuple[Callable[..., Any], tuple, dict]:
    shape = "(callable, args) or (callable, args, kwargs)"
    if not isinstance(returned, tuple) or len(returned) not in (2, 3):
        raise ProbeError(f"{probe.name} must return {shape}, got {type(returned).__name__}")
    target, args, kwargs = returned if len(returned) == 3 else (*returned, {})
    if not callable(target):
        raise ProbeError(f"{probe.name} returned a {type(target).__name__}, not a callable")
    if not isinstance(args, tuple | list) or not isinstance(kwargs, dict):
        raise ProbeError(f"{probe.name} must return {shape} with a tuple and a dict")
    return target, tuple(args), kwargs


def _to_device(value: Any, device: str) -> Any:
    import torch

    if isinstance(value, torch.Tensor | torch.nn.Module):
        return value.to(device)
    if isinstance(value, tuple | list):
        return type(value)(_to_device(item, device) for item in value)
    if isinstance(value, dict):
        return {key: _to_device(item, device) for key, item in value.items()}
    return value


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
    spans = [s for s in spans if first_line <= s.end_line and s.line <= last_line]
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
        holding = tuple(span for span in spans if span.holds(*position))
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

    def lines(frame: FrameType, event: str, arg: Any) -> Callable | None:
        if event == "line":
            path = inside[frame.f_code.co_filename]
            assert path is not None  # only functions of linted files are traced
            coverage.executed.add((path, frame.f_lineno))
        return lines

    def on_call(frame: FrameType, event: str, arg: Any) -> Callable | None:
        code = frame.f_code
        filename = code.co_filename
        if filename not in inside:
            real = os.path.realpath(filename)
            inside[filename] = real if real in watch.linted else None
        path = inside[filename]
        if path is None:
            return None
        if code not in offsets:
            offsets[code] = _instructions_in_spans(code, spans_by_path.get(path, []))
            coverage.instrumented.update(s for held in offsets[code].values() for s in held)
        held_at = offsets[code]
        if not held_at:
            return lines

        def instructions(frame: FrameType, event: str, arg: Any) -> Callable | None:
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


def _attribute(raw: Any, request: ProbeRequest) -> Break | None:
    from breaklint.dynamic import torch_shim

    frames = raw.frames
    if not frames:
        return None
    linted = [f for f in frames if os.path.realpath(f.path) in request.watch.linted]
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
    )
    return Break(
        os.path.realpath(frame.path), frame.line, column, max(end_column, column), evidence
    )


def _is_ours(path: str) -> bool:
    """breaklint's and the interpreter's frames below the probe."""
    return path.startswith((_BREAKLINT_DIR, "<"))


def run_probe(request: ProbeRequest, device: str) -> ProbeResult:
    from breaklint.dynamic import torch_shim

    started = time.perf_counter()
    probe = request.probe
    try:
        module = _load(probe.path)
        function = getattr(module, probe.name, None)
        if not callable(function):
            raise ProbeError(f"{probe.name} is not a function of {probe.path}")
        _seed()  # the same weights and inputs on every run, so that runs can be compared
        calls = variants.plan(function(), lambda returned: _unpack(probe, returned))
        target, args, kwargs = calls.target, calls.args, calls.kwargs
        target = _to_device(target, device)
        args, kwargs = _to_device(args, device), _to_device(kwargs, device)
        calls.args, calls.kwargs = args, kwargs
        if not request.watch.variants and calls.calls is None:
            calls.calls = []  # --no-variants: the probe's own calls only
        if calls.calls is not None:
            calls.calls = [
                Call(*_to_device(c.args, device), **_to_device(c.kwargs, device))
                for c in calls.calls
            ]
        varied = variants.VariantRun(calls)
        coverage, returned = _traced_run(lambda: target(*args, **kwargs), request.watch)
        outputs_differ = None
        if request.outputs is not None:
            outputs_differ = _check_outputs(returned, request.outputs)
        captured = torch_shim.capture(
            lambda compiled: compiled(*args, **kwargs),
            target,
            then=varied,
            recompile_limit=calls.recompile_limit,
        )
        assert captured.compiles is not None  # given `then`
        recompiles, recompile_breaks = variants.summarise(
            captured.compiles, varied, request.watch.linted, probe
        )
        if inspect.isgenerator(returned):  # Dynamo never sees the frame: no channel reports it
            captured.breaks.append(torch_shim.generator_skip(returned.gi_code))
        breaks: dict[tuple[str, str, int, str], Break] = {}
        for raw in captured.breaks:
            item = _attribute(raw, request)
            if item is not None:
                breaks.setdefault(item.key(), item)
        # A break "goes away with a knob" when, rerun with it, nothing breaks on that line.
        lines_left = {(b.path, b.line) for b in breaks.values()}
        for knob in torch_shim.KNOBS if breaks else ():
            rerun = torch_shim.capture(lambda c: c(*args, **kwargs), target, knob)
            still = {(b.path, b.line) for r in rerun.breaks if (b := _attribute(r, request))}
            for key, item in breaks.items():
                if (item.path, item.line) in lines_left and (item.path, item.line) not in still:
                    breaks[key] = replace(item, evidence=replace(item.evidence, config_knob=knob))
            lines_left &= still
    except BaseException as error:  # the user's code may raise anything, SystemExit included
        if isinstance(error, KeyboardInterrupt):
            raise
        message = f"{type(error).__name__}: {error}".strip().splitlines()[0]
        tail = None if isinstance(error, ProbeError) else _traceback_tail(error)
        return ProbeResult(
            probe, ProbeStatus.ERROR, time.perf_counter() - started, error=message, traceback=tail
        )
    return ProbeResult(
        probe,
        ProbeStatus.OK,
        time.perf_counter() - started,
        graphs=len(captured.ops_per_graph),
        ops_per_graph=tuple(captured.ops_per_graph),
        frames_skipped=captured.frames_skipped,
        breaks=tuple(breaks.values()),
        executed=frozenset(coverage.executed),
        instrumented=frozenset(coverage.instrumented),
        reached=frozenset(coverage.reached),
        outputs_differ=outputs_differ,
        recompiles=recompiles,
        recompile_breaks=recompile_breaks,
        resumes=varied.resume_counts(),
    )


def _seed() -> None:
    import random

    import torch

    random.seed(0)
    torch.manual_seed(0)


def _check_outputs(returned: Any, check: OutputsCheck) -> str | None:
    """Save the eager outputs, or how they differ from those saved (torch's `assert_close`
    with its default tolerances for the dtype; exact for integers and Python values)."""
    import torch

    if inspect.isgenerator(returned):
        return None  # consumed while tracing: nothing left to compare
    if not check.compare:
        with contextlib.suppress(Exception):  # unsaved outputs show when they are compared
            torch.save(_to_device(returned, "cpu"), check.path)
        return None
    try:
        saved = torch.load(check.path, map_location="cpu", weights_only=False)
        torch.testing.assert_close(_to_device(returned, "cpu"), saved)
    except AssertionError as difference:
        return " ".join(str(difference).split())[:300]
    except Exception as error:  # outputs that cannot be saved or compared prove nothing
        return f"cannot compare the outputs ({type(error).__name__}: {error})"[:300]
    return None


def _traceback_tail(error: BaseException) -> str:
    """The user's frames of the traceback, not the worker's, and the exception."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    lines = traceback.format_list(frames[-_TRACEBACK_FRAMES:])
    return "".join(["Traceback (most recent call last):\n", *lines]) + "".join(
        traceback.format_exception_only(error)
    )


def _resolve_device(requested: str) -> str:
    import torch

    cuda = torch.cuda.is_available()
    if requested == "cuda" and not cuda:
        raise RuntimeError("--device cuda was requested but torch.cuda.is_available() is False")
    return "cuda" if requested == "cuda" or (requested == "auto" and cuda) else "cpu"


def main() -> None:
    log_path, requested_device = sys.argv[1], sys.argv[2]
    results = os.fdopen(os.dup(1), "wb")
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    requests = sys.stdin.buffer
    try:
        from breaklint.dynamic import torch_shim

        device = _resolve_device(requested_device)
    except Exception as error:
        send(results, WorkerFailed(str(error)))
        return
    send(results, WorkerReady(device, torch_shim.version_problem()))
    while True:
        try:
            request = receive(requests)
        except EOFError:
            return
        assert isinstance(request, ProbeRequest), request
        send(results, run_probe(request, device))


if __name__ == "__main__":
    main()
