"""Calls that vary: a probe's call and its variants, run on one compiled target, and the guards
that made Dynamo compile again, told apart: automatic dynamic fails a guard once and then
compiles a graph general in the value (what Dynamo is designed to do), a guard on a value
Dynamo must specialise fails again on every new value (what costs users). Runs in workers."""

from __future__ import annotations

import cProfile
import inspect
import linecache
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from types import CodeType
from typing import Any

from breaklint.calls import Call, Calls
from breaklint.dynamic.bytecode import resumed_after
from breaklint.dynamic.model import Break, GuardSummary, Probe, RecompileSummary, ResumeCount
from breaklint.findings import BreakKind, Evidence, RecompileFacts

# Each varied value takes two other values: a guard that fails on both is not generalised.
_STEPS = (1, 2)
_COMPARED = re.compile(r"(==|!=|<=|>=|<|>) *(?:-?[\d.]+(?:e[-+]?\d+)?|True|False)")
_SIZES = re.compile(r"expected \d+, actual \d+")
_SETTINGS = (
    "recompile_limit",
    "cache_size_limit",
    "automatic_dynamic_shapes",
    "specialize_int",
    "specialize_float",
    "allow_unspec_int_on_nn_module",
)


@dataclass(slots=True)
class CallPlan:
    """What a probe runs: its call, then `calls` (None: variants derived from its call; empty
    under --no-variants)."""

    target: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    calls: list[Call] | None = None
    recompile_limit: int | None = None


def plan(
    returned: Any,
    unpack: Callable[[Any], tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]],
) -> CallPlan:
    """A probe's return value as a plan: `Calls`, or what `unpack` accepts."""
    if isinstance(returned, Calls):
        if not returned.calls:
            return CallPlan(*unpack((returned.target, ())))
        first, *rest = returned.calls
        return CallPlan(returned.target, first.args, first.kwargs, rest, returned.recompile_limit)
    return CallPlan(*unpack(returned))


def derive(
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    reads: GuardReads | None = None,
    fixed: frozenset[int] = frozenset(),
) -> list[list[Call]]:
    """Groups of calls, each varying one thing, after the probe's call made twice
    (`torch_shim.capture(again=True)`): the call once more, on warm graphs (state that calls
    change fails a guard on every call: a third call fails it a second time); every
    dimension size above 1 of the tensor arguments made larger (in every tensor that has that
    size, so that related inputs stay compatible); every Python int, float or bool argument
    given other values.

    With `reads` (the guards of the first compile), only what a guard of the first compile
    reads, at the least cost: the call once more; the sizes of the tensors whose dimensions a
    guard reads beyond a static compile's check (marked static or dynamic, symbolic) grown all
    at once, but for the `fixed` ones (a parameter's sizes, which an input must match); a
    number a guard compares; no bool, which compiles once per value at most."""
    names: list[int | str] = [*range(len(args)), *kwargs]
    values = {name: args[name] if isinstance(name, int) else kwargs[name] for name in names}
    shaped = [v for n, v in values.items() if reads is None or reads.shape(n)]
    sizes = sorted({n for tensor in _tensors(shaped) for n in tensor.shape if n > 1})
    groups = [[Call(*args, **kwargs)]]
    if reads is None:
        groups += [_grown(args, kwargs, [size]) for size in sizes]
    else:
        groups.append(_grown(args, kwargs, [size for size in sizes if size not in fixed]))
    for name, value in values.items():
        if reads is not None and (isinstance(value, bool) or not reads.value(name, value)):
            continue
        group = []
        for other in _other_values(value):
            new_args = tuple(other if i == name else a for i, a in enumerate(args))
            new_kwargs = {k: other if k == name else v for k, v in kwargs.items()}
            group.append(Call(*new_args, **new_kwargs))
        groups.append(group)
    return [group for group in groups if group]


def _tensors(values: list[Any]) -> list[Any]:
    import torch

    return [value for value in _leaves(*values) if isinstance(value, torch.Tensor)]


def _grown(args: tuple[Any, ...], kwargs: dict[str, Any], sizes: list[int]) -> list[Call]:
    """The call with every dimension of one of `sizes` made larger by each step, in every
    tensor (none when `sizes` is empty)."""
    import torch

    from breaklint.dynamic import torch_shim

    group = []
    for step in _STEPS if sizes else ():
        new = {size: size + step for size in sizes}

        def grow(value: Any, new: dict[int, int] = new) -> Any:
            return torch_shim.resized(value, new) if isinstance(value, torch.Tensor) else value

        group.append(Call(*_map(args, grow), **_map(kwargs, grow)))
    return group


def fixed_sizes(target: Any) -> frozenset[int]:
    """The sizes of a module's parameters and buffers: an input dimension of one of these
    sizes is most often one the module's weights fix (features, channels)."""
    import torch

    if not isinstance(target, torch.nn.Module):
        return frozenset()
    tensors = [*target.parameters(), *target.buffers()]
    return frozenset(n for tensor in tensors for n in tensor.shape)


@dataclass(frozen=True, slots=True)
class GuardReads:
    """What the guards of the first compile read of each argument of the compiled function:
    a value no guard reads cannot make Dynamo compile again, so varying it shows nothing."""

    guards: tuple[str, ...]
    # Argument index or keyword -> its source in the guards (`L['n']`); absent: unknown,
    # and then read.
    sources: dict[int | str, str]

    @classmethod
    def of(
        cls, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any], guards: tuple[str, ...]
    ) -> GuardReads:
        return cls(guards, _sources(target, args, kwargs))

    def value(self, name: int | str, value: Any) -> bool:
        """Whether a guard compares the number `name` holds (a frame compiled on its own after
        a break names it otherwise: then any guard that compares with its value counts)."""
        source = self.sources.get(name)
        compared = f"== {value!r}"
        return source is None or any(
            guard.startswith(f"{source} ==") or guard.endswith(compared) for guard in self.guards
        )

    def shape(self, name: int | str) -> bool:
        """Whether a guard reads a dimension of the tensors in `name` beyond the sizes a static
        compile checks (those fail once, then automatic dynamic compiles a general graph)."""
        source = self.sources.get(name)
        return source is None or any(
            source in guard and (_SHAPE_READ.search(guard) is not None) for guard in self.guards
        )


# A guard on a dimension beyond the sizes every static compile checks: a size or stride of a
# dynamic shape, or a mark_static / mark_dynamic set on the tensor (a tensor without marks is
# guarded by `hasattr(L['x'], '_dynamo_static_indices') == False`).
_SHAPE_READ = re.compile(r"\.size\(\)|\.stride\(\)|_dynamo_\w+_indices', set\(\)")


def _sources(target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[int | str, str]:
    """Each argument's source in the guards of the frame Dynamo compiles for `target` (a
    module's `forward`): `L['name']` by the parameter it binds to."""
    import torch

    function = target.forward if isinstance(target, torch.nn.Module) else target
    try:
        signature = inspect.signature(function)
        signature.bind(*args, **kwargs)
    except (TypeError, ValueError):  # no signature, or a call it does not take
        return {}
    parameters = signature.parameters
    positional = [
        name
        for name, parameter in parameters.items()
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    ]
    sources: dict[int | str, str] = {i: f"L[{n!r}]" for i, n in enumerate(positional[: len(args)])}
    for key in kwargs:
        if key in parameters and parameters[key].kind is not parameters[key].VAR_KEYWORD:
            sources[key] = f"L[{key!r}]"
    return sources


def _other_values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + step for step in _STEPS]
    if isinstance(value, float):
        return [value + step - 0.5 for step in _STEPS]
    return []


def _leaves(*values: Any) -> list[Any]:
    found: list[Any] = []
    for value in values:
        if isinstance(value, tuple | list):
            found.extend(_leaves(*value))
        elif isinstance(value, dict):
            found.extend(_leaves(*value.values()))
        else:
            found.append(value)
    return found


def _map(value: Any, change: Callable[[Any], Any]) -> Any:
    if isinstance(value, tuple | list):
        return type(value)(_map(item, change) for item in value)
    if isinstance(value, dict):
        return {key: _map(item, change) for key, item in value.items()}
    return change(value)


@dataclass(slots=True)
class VariantRun:
    """Runs the plan's other calls on the compiled target, after its first call: the calls
    the probe gave, or those derived (`guided`: only what a guard of the first compile reads):
    the call once more, then others until they have taken `budget_s` (0: no limit)."""

    plan: CallPlan
    guided: bool = True
    budget_s: float = 0.0
    calls: int = 1  # the probe's own calls, before these
    failed: int = 0
    seconds: float = 0.0
    budget_hit: bool = False  # calls were left out: the budget was spent
    # The compilations (by index) that calls which raised made: their guards are not counted.
    ignored: set[int] = field(default_factory=set)
    # (real path, line) of a graph break -> resumes after it in the first call run here.
    resumes: dict[tuple[str, int], int] = field(default_factory=dict)

    def __call__(self, compiled: Callable[..., Any], guards: tuple[str, ...]) -> None:
        from breaklint.dynamic import torch_shim

        started = time.perf_counter()
        before_these = self.calls
        plan = self.plan
        derived = plan.calls is None  # the budget bounds these; the probe's own calls all run
        if plan.calls is not None:
            groups = [plan.calls]
        else:
            if self.guided:
                reads = GuardReads.of(plan.target, plan.args, plan.kwargs, guards)
                groups = derive(plan.args, plan.kwargs, reads, fixed_sizes(plan.target))
            else:
                groups = derive(plan.args, plan.kwargs)
        for group in groups:
            for call in group:
                spent = time.perf_counter() - started
                if (
                    derived
                    and self.calls > before_these
                    and self.budget_s
                    and spent > self.budget_s
                ):
                    self.budget_hit = True
                    self.seconds = time.perf_counter() - started
                    return
                self.calls += 1
                before = torch_shim.compilations()
                try:
                    if self.calls == before_these + 1:  # the first call here: graphs warm
                        self._count_resumes(partial(compiled, *call.args, **call.kwargs))
                    else:
                        compiled(*call.args, **call.kwargs)
                except Exception:  # a size the model cannot take: not a finding
                    self.failed += 1
                    self.ignored.update(range(before, torch_shim.compilations()))
                    if plan.calls is None:
                        break  # the next value of the same kind fails the same way
        self.seconds = time.perf_counter() - started

    def _count_resumes(self, call: Callable[[], Any]) -> None:
        """Run `call`, counting the functions Dynamo resumes in after each break. The C
        profiler counts the calls: a Python callback on every call would run through all of
        Dynamo's own frames when the call compiles again, at several times the cost."""
        profiler = cProfile.Profile(subcalls=False, builtins=False)
        profiler.enable()
        try:
            call()
        finally:
            profiler.disable()
        for entry in profiler.getstats():
            code = entry.code  # a string for a builtin, which builtins=False leaves out
            if isinstance(code, CodeType) and (line := resumed_after(code.co_name)) is not None:
                key = (os.path.realpath(code.co_filename), line)
                self.resumes[key] = self.resumes.get(key, 0) + entry.callcount

    def resume_counts(self) -> tuple[ResumeCount, ...]:
        found = [ResumeCount(path, line, n) for (path, line), n in self.resumes.items()]
        return tuple(sorted(found, key=lambda r: (-r.per_call, r.path, r.line)))


def _general(guard: str) -> str:
    """`n == 2` -> `n == N`: the failures of one guard on several values, merged."""
    return _SIZES.sub("expected N, actual N", _COMPARED.sub(r"\1 N", guard))


def _real_path(path: str | None, linted: frozenset[str]) -> str | None:
    """Dynamo writes the tail of a long path (`mp/models/net.py`): the linted file it ends."""
    if not path:
        return None
    real = os.path.realpath(path)
    if real in linted:
        return real
    tails = [file for file in linted if file.endswith(path)]
    return tails[0] if len(tails) == 1 else None


@dataclass(frozen=True, slots=True)
class _Place:
    path: str | None
    line: int | None
    function: str | None


def summarise(
    compiles: Any, run: VariantRun, linted: frozenset[str], probe: Probe
) -> tuple[RecompileSummary, tuple[Break, ...]]:
    """The probe's recompile summary (from the shim's `Compiles`), and a RECOMPILES break per
    guard that failed on every new value, at the line that installed it."""
    groups: dict[tuple[str, str | None, int | None], list[Any]] = {}
    places: dict[tuple[str, str | None, int | None], _Place] = {}
    failures = [f for f in compiles.failures if f.index not in run.ignored]
    for failure in failures:
        place = _Place(_real_path(failure.path, linted), failure.line, failure.function)
        if place.path is None:  # a shape guard names no line: the compiled function
            frame = _real_path(failure.frame_path, linted)
            place = _Place(frame, failure.frame_line if frame else None, failure.frame_function)
        key = (_general(failure.guard), place.path, place.line)
        groups.setdefault(key, []).append(failure)
        places.setdefault(key, place)
    guards = []
    breaks = []
    for key, group in groups.items():
        place = places[key]
        guard = GuardSummary(
            guard=key[0],
            first=group[0].guard,
            failures=len(group),
            per_value=len({f.guard for f in group}) > 1,
            limit_hit=any(f.limit_hit for f in group),
            path=place.path,
            line=place.line,
        )
        guards.append(guard)
        if guard.per_value:
            facts = RecompileFacts(
                guard.first, guard.failures, compiles.compiles, run.calls, guard.limit_hit
            )
            breaks.append(_recompile_break(guard, place, facts, group[-1].reason, probe))
    summary = RecompileSummary(
        calls=run.calls,
        calls_failed=run.failed,
        compiles=compiles.compiles,
        recompiles=compiles.recompiles,
        guard_failures=len(failures),
        limit_hit=compiles.limit_hit,
        guards=tuple(guards),
        variants_s=run.seconds,
        budget_hit=run.budget_hit,
    )
    return summary, tuple(breaks)


def _recompile_break(
    guard: GuardSummary, place: _Place, facts: RecompileFacts, reason: str, probe: Probe
) -> Break:
    from breaklint.dynamic import torch_shim

    path, line = (place.path, place.line) if place.path and place.line else (probe.path, probe.line)
    source = linecache.getline(path, line).rstrip()
    indent = len(source) - len(source.lstrip())
    settings = ", ".join(torch_shim.config_settings(_SETTINGS))
    evidence = Evidence(
        kind=BreakKind.RECOMPILES,
        function=place.function or "?",
        gb_id=None,
        gb_type="Recompiles on every new value",
        explanation=(
            f"the guard `{guard.guard}` failed {guard.failures} times over {facts.calls} calls "
            f"({facts.compiles} compiles): Dynamo specialised on the value instead of "
            "generalising it"
            + (
                "; the recompile limit was reached and the function now runs eagerly"
                if facts.limit_hit
                else ""
            )
        ),
        hints=(_advice(guard.guard), f"torch._dynamo.config settings in this torch: {settings}"),
        reason=reason,
        gb_url=None,
        probe=probe.key,
        bytecode="",
        instruction="",
        stack=(f"{path}:{line} in {place.function or '?'}",),
        recompiles=facts,
    )
    return Break(path, line, indent + 1, len(source) + 1, evidence)


def _advice(guard: str) -> str:
    """What to do about a guard that fails on every value, by what it guards."""
    if "size mismatch" in guard or "stride mismatch" in guard:
        return (
            "let the dimension vary: torch._dynamo.mark_dynamic(x, dim) (not mark_static), "
            "torch.compile(..., dynamic=True), or keep "
            "torch._dynamo.config.automatic_dynamic_shapes on"
        )
    if guard.startswith(("self.", "L['self']")):
        return (
            "keep the number in a tensor buffer (register_buffer) or update it outside the "
            "compiled region; torch._dynamo.config.allow_unspec_int_on_nn_module = True makes "
            "int attributes dynamic"
        )
    return (
        "pass the value as a tensor, compute without a Python loop over it, or hoist it out "
        "of the compiled region; mark_dynamic and dynamic=True do not help a value Dynamo "
        "must know (a loop bound)"
    )
