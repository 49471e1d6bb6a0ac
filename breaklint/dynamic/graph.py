"""The worker side of `breaklint graph`: capture a probe's FX graphs with a recording backend
(never inductor), order them with the breaks between them and, for `--wrap`, recompile with
pass-through wrappers after the named nodes and check the edit."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from breaklint.dynamic.attribution import attribute
from breaklint.dynamic.editability import WrapTarget, resolve_wrap
from breaklint.dynamic.model import (
    Break,
    CapturedGraph,
    GraphRequest,
    GraphResult,
    ProbeRequest,
    ProbeStatus,
    Watch,
    WrapOutcome,
)
from breaklint.dynamic.probe_call import failure, planned_call, seed


@dataclass(slots=True)
class _Loaded:
    target: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    def call(self, function: Any) -> Any:
        return function(*self.args, **self.kwargs)


def _load_probe(request: GraphRequest, device: str) -> _Loaded:
    # A probe that returns `Calls`: its graphs are those of its first call.
    planned = planned_call(request.probe, device)
    return _Loaded(planned.target, planned.args, planned.kwargs)


def _module_names(target: Any) -> dict[int, str]:
    import torch

    if not isinstance(target, torch.nn.Module):
        return {}
    return {id(module): name for name, module in target.named_modules()}


def _timeline(captured: Any, request: GraphRequest, target: Any) -> GraphResult:
    """Each graph with the breaks logged since the one before: a compile yields its graph,
    then logs the break that ended it; breaks after the last graph (and frames Dynamo skipped
    without logging) trail."""
    from breaklint.dynamic import torch_shim

    # Breaks are attributed to the innermost frame outside torch, the libraries and breaklint.
    attribution = ProbeRequest(request.probe, Watch(frozenset()))

    def attributed(indices: list[int]) -> list[Break]:
        found = (attribute(captured.breaks[i], attribution) for i in indices)
        return [item for item in found if item is not None]

    names = _module_names(target)
    pending: list[Break] = []
    graphs: list[CapturedGraph] = []
    for compile_id in captured.compile_order:
        for index, owner in enumerate(captured.graph_compiles):
            if owner == compile_id:
                nodes = torch_shim.graph_nodes(
                    captured.graphs[index],
                    names,
                    captured.lifted[index],
                    captured.owners[index],
                )
                graphs.append(CapturedGraph(index + 1, nodes, tuple(pending)))
                pending = []
        pending += attributed([i for i, c in enumerate(captured.break_compiles) if c == compile_id])
    pending += attributed(list(range(len(captured.break_compiles), len(captured.breaks))))
    graphs.sort(key=lambda graph: graph.index)
    return GraphResult(
        request.probe,
        ProbeStatus.OK,
        0.0,
        graphs=tuple(graphs),
        trailing=tuple(pending),
        frames_skipped=captured.frames_skipped,
    )


def _wrap(result: GraphResult, loaded: _Loaded, wraps: tuple[str, ...]) -> GraphResult:
    """Recompile with a wrapper after each resolved node, run, and check that each wrapper's
    hook saw a value, that outputs equal eager ones and that the graph count held."""
    from breaklint.dynamic import torch_shim, wrap_backend

    targets = [resolve_wrap(spec, result.graphs) for spec in wraps]
    chosen = [t for t in targets if t.failure is None]
    if not chosen:
        return _with_outcomes(result, targets, {}, None, None)
    wrappers = {f"graph{t.graph}:{t.node}": wrap_backend.Wrapper() for t in chosen}
    seen: dict[str, str] = {}

    def hook(key: str) -> Any:
        def record(module: Any, args: Any, output: Any) -> None:  # None: keep the value
            seen.setdefault(key, wrap_backend.describe(output))

        return record

    for key, wrapper in wrappers.items():
        wrapper.register_forward_hook(hook(key))

    def edit(index: int, gm: Any) -> None:
        prefix = f"graph{index}:"
        mine = {k.removeprefix(prefix): w for k, w in wrappers.items() if k.startswith(prefix)}
        wrap_backend.wrap_nodes(gm, mine)

    seed()
    expected = loaded.call(loaded.target)
    returned: list[Any] = []
    seed()
    wrapped = torch_shim.capture(
        lambda c: returned.append(loaded.call(c)), loaded.target, edit=edit
    )
    differ = wrap_backend.difference(expected, returned[0])
    return _with_outcomes(result, targets, seen, len(wrapped.graphs), differ)


def _with_outcomes(
    result: GraphResult,
    targets: list[WrapTarget],
    seen: dict[str, str],
    wrapped_graphs: int | None,
    differ: str | None,
) -> GraphResult:
    outcomes = []
    for target in targets:
        key = f"graph{target.graph}:{target.node}"
        failure = target.failure
        if failure is None and key not in seen:
            failure = f"the wrapper after {key} never ran: its graph did not run"
        elif failure is None and wrapped_graphs != len(result.graphs):
            failure = f"the wrap changed the graph count: {len(result.graphs)} -> {wrapped_graphs}"
        elif failure is None and differ is not None:
            failure = f"outputs differ from eager with the wrapper in: {differ}"
        message = failure or (
            f"wrapped {key}: the hook saw {seen[key]}; outputs equal eager (torch.equal); "
            f"graphs {len(result.graphs)} -> {wrapped_graphs}"
        )
        outcomes.append(
            WrapOutcome(
                target.spec,
                failure is None,
                message,
                graph=target.graph,
                node=target.node,
                module=target.module,
                seen=seen.get(key),
            )
        )
    return replace(
        result, wraps=tuple(outcomes), wrapped_graphs=wrapped_graphs, outputs_differ=differ
    )


def run_graph(request: GraphRequest, device: str) -> GraphResult:
    from breaklint.dynamic import torch_shim

    started = time.perf_counter()
    try:
        loaded = _load_probe(request, device)
        captured = torch_shim.capture(loaded.call, loaded.target)
        result = _timeline(captured, request, loaded.target)
        if request.wraps:
            result = _wrap(result, loaded, request.wraps)
    except BaseException as error:  # the user's code may raise anything, SystemExit included
        failed = failure(error, device)
        elapsed = time.perf_counter() - started
        return GraphResult(
            request.probe,
            ProbeStatus.ERROR,
            elapsed,
            error=failed.error,
            traceback=failed.traceback,
        )
    return replace(result, wall_s=time.perf_counter() - started)
