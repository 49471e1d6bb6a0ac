"""Editability of a probe's captured graphs (torch-free, shared by the worker and the CLI):
which module each node belongs to, each module's output anchor, the modules a break cuts
across graphs, and what a `--wrap` name means."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from breaklint.dynamic.model import Break, CapturedGraph, GraphResult, ProbeStatus
from breaklint.source import display_path

# Nodes that compute something: a module's anchor is the last of these it holds.
_VALUE_OPS = ("call_function", "call_method", "call_module")
_QUALIFIED = re.compile(r"^graph(?P<index>\d+)$")


@dataclass(frozen=True, slots=True)
class ModuleAnchor:
    """A submodule's nodes in the captured graphs and its output anchor: the last node of its
    `nn_module_stack` group, what an edit of the module's output wraps."""

    module: str  # `transformer.h.0.attn`
    graphs: tuple[int, ...]  # the graphs holding its nodes; several: a break cuts it
    anchor: str
    anchor_graph: int


@dataclass(frozen=True, slots=True)
class WrapTarget:
    """Where a `--wrap` name resolved, or why it did not (`failure`, one line)."""

    spec: str
    graph: int | None = None
    node: str | None = None
    module: str | None = None
    failure: str | None = None


def describe_break(item: Break) -> str:
    """`model.py:17 (GB0059 Builtin print)`: a break as failure messages name it."""
    gb = f"{item.evidence.gb_id} " if item.evidence.gb_id else ""
    return f"{display_path(item.path)}:{item.line} ({gb}{item.evidence.gb_type})"


def module_anchors(graphs: Sequence[CapturedGraph]) -> list[ModuleAnchor]:
    """Every submodule with a computing node, in the order its first node appears."""
    holding: dict[str, list[int]] = {}
    last: dict[str, tuple[int, str]] = {}
    for graph in graphs:
        for node in graph.nodes:
            if node.op not in _VALUE_OPS:
                continue
            for module in node.modules:
                seen = holding.setdefault(module, [])
                if graph.index not in seen:
                    seen.append(graph.index)
                last[module] = (graph.index, node.name)
    return [
        ModuleAnchor(module, tuple(indices), last[module][1], last[module][0])
        for module, indices in holding.items()
    ]


def is_editable(result: GraphResult) -> bool:
    """The probe's root compiles to one graph: no break, no skipped frame."""
    return (
        result.status is ProbeStatus.OK
        and len(result.graphs) == 1
        and not result.breaks
        and result.frames_skipped == 0
    )


def _breaks_before(graphs: Sequence[CapturedGraph], index: int) -> list[Break]:
    return [item for graph in graphs[:index] for item in graph.after]


def resolve_wrap(spec: str, graphs: Sequence[CapturedGraph]) -> WrapTarget:
    """What `--wrap spec` names: an FX node, `graphN:name` (a node of graph N) or a module
    path (its output anchor). A bare name must lie in a graph no break precedes: an edit
    after a break lands in a resumed graph, not in the model as one graph."""
    prefix, _, name = spec.rpartition(":")
    candidates = list(graphs)
    if prefix:
        qualified = _QUALIFIED.match(prefix)
        if qualified is None:
            return WrapTarget(spec, failure=f"'{spec}': write NAME or graphN:NAME")
        index = int(qualified["index"])
        if not 1 <= index <= len(graphs):
            count = f"{len(graphs)} graph{'s' if len(graphs) != 1 else ''}"
            return WrapTarget(spec, failure=f"no graph {index}: the probe captured {count}")
        candidates = [graphs[index - 1]]
    target = _find(spec, name, candidates, graphs)
    if target.failure is not None or prefix or target.graph is None:
        return target
    before = _breaks_before(graphs, target.graph)
    if before:
        what = f"module '{target.module}'" if target.module else f"node '{name}'"
        return WrapTarget(
            spec,
            failure=f"{what} is in graph {target.graph}, after the graph break at "
            f"{describe_break(before[-1])}: fix that break to edit the model as one graph, "
            f"or name it graph{target.graph}:{target.node} to edit that graph alone",
        )
    return target


def _find(
    spec: str, name: str, candidates: list[CapturedGraph], graphs: Sequence[CapturedGraph]
) -> WrapTarget:
    for graph in candidates:
        for node in graph.nodes:
            if node.name == name and node.op != "output":
                return WrapTarget(spec, graph.index, node.name)
    anchors = {a.module: a for a in module_anchors(candidates)}
    anchor = anchors.get(name)
    if anchor is not None and len(anchor.graphs) > 1:
        cut = ", ".join(str(index) for index in anchor.graphs)
        breaks = _breaks_before(graphs, anchor.graphs[-1])[-1:]
        where = f" by the graph break at {describe_break(breaks[0])}" if breaks else ""
        return WrapTarget(
            spec, failure=f"module '{name}' is split across graphs {cut}{where}: it has no "
            "single output node to wrap"
        )  # fmt: skip
    if anchor is not None:
        return WrapTarget(spec, anchor.anchor_graph, anchor.anchor, module=name)
    known = [node.name for graph in candidates for node in graph.nodes if node.op != "output"]
    closest = difflib.get_close_matches(name, [*dict.fromkeys(known), *anchors], n=3)
    hint = f"; closest: {', '.join(closest)}" if closest else ""
    return WrapTarget(spec, failure=f"no node or module named '{name}' in the graphs{hint}")
