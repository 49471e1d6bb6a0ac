"""`breaklint graph`: what a probe's captured graphs look like, whether the model is editable,
and the `--wrap` checks, as a rich report (`full`), as JSON, and as a backend file to reuse
(`--emit-backend`). Runs in the CLI process: never imports torch."""

from __future__ import annotations

import linecache
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from breaklint.dynamic.editability import (
    ModuleAnchor,
    describe_break,
    is_editable,
    module_anchors,
)
from breaklint.dynamic.model import Break, CapturedGraph, GraphNode, GraphResult, ProbeStatus
from breaklint.findings import BreakKind, Finding
from breaklint.source import display_path

JSON_VERSION = 1


@dataclass(frozen=True, slots=True)
class BreakView:
    """A break with the static findings on its statement."""

    item: Break
    findings: tuple[Finding, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": display_path(self.item.path),
            "line": self.item.line,
            "column": self.item.column,
            "kind": self.item.kind.value,
            "function": self.item.evidence.function,
            "gb_id": self.item.evidence.gb_id,
            "gb_type": self.item.evidence.gb_type,
            "explanation": self.item.evidence.explanation,
            "hints": list(self.item.evidence.hints),
            "source": _source(self.item.path, self.item.line),
            "findings": [
                {
                    "code": finding.code,
                    "name": finding.name,
                    "message": finding.message,
                    "line": finding.line,
                    "hint": finding.hint,
                    "fix": None if finding.fix is None else finding.fix.message,
                    "fix_applicability": None
                    if finding.fix is None
                    else finding.fix.applicability.value,
                }
                for finding in self.findings
            ],
        }


@dataclass(frozen=True, slots=True)
class ProbeView:
    """One probe's graphs, judged: editable or not, why, and where each module's output is."""

    result: GraphResult
    findings: dict[str, list[Finding]]  # static findings of the files it broke in, by path
    anchors: list[ModuleAnchor]

    @property
    def editable(self) -> bool:
        return is_editable(self.result)

    @property
    def cut(self) -> list[ModuleAnchor]:
        return [anchor for anchor in self.anchors if len(anchor.graphs) > 1]

    def view(self, item: Break) -> BreakView:
        from breaklint.dynamic.join import findings_at

        return BreakView(item, tuple(findings_at(self.findings.get(item.path, []), item)))


def _source(path: str, line: int) -> str | None:
    return linecache.getline(path, line).strip() or None


def judge(results: Sequence[GraphResult]) -> list[ProbeView]:
    """Each result with the static findings of the files it broke in: linted with every rule
    on every function (Dynamo traced the line, so compile scope does not matter)."""
    from breaklint.config import Settings
    from breaklint.engine import lint_paths

    paths = sorted({item.path for r in results for item in r.breaks if os.path.isfile(item.path)})
    linted = lint_paths(paths, Settings(scope="all"), 1, False).findings if paths else []
    findings: dict[str, list[Finding]] = {}
    for finding in linted:
        findings.setdefault(os.path.realpath(finding.path), []).append(finding)
    return [ProbeView(r, findings, module_anchors(r.graphs)) for r in results]


def verdict(view: ProbeView) -> str:
    """The one-line verdict: `probes.py::probe_m: editable (1 graph, no break)`."""
    result = view.result
    key = f"{display_path(result.probe.path)}::{result.probe.name}"
    if result.status is not ProbeStatus.OK:
        return f"{key}: {result.status.value}: {result.error}"
    graphs = f"{len(result.graphs)} graph{'s' if len(result.graphs) != 1 else ''}"
    if view.editable:
        return f"{key}: editable ({graphs}, no break)"
    count = len(result.breaks)
    breaks = f"{count} break{'s' if count != 1 else ''}"
    skipped = f", {result.frames_skipped} frame(s) skipped" if result.frames_skipped else ""
    return f"{key}: not editable ({graphs}, {breaks}{skipped})"


def _break_lines(view: BreakView) -> list[str]:
    item = view.item
    what = "frame skipped" if item.kind is BreakKind.FRAME_SKIPPED else "graph break"
    lines = [f"{what} at {describe_break(item)} in {item.evidence.function}"]
    source = _source(item.path, item.line)
    if source:
        lines.append(f"  {item.line} | {source}")
    if not view.findings:
        lines.append("  no static finding at this line")
    for finding in view.findings:
        lines.append(f"  finding: {finding.code} {finding.name}: {finding.message}")
        if finding.fix is not None:
            lines.append(f"  fix ({finding.fix.applicability.value}): {finding.fix.message}")
        elif finding.hint:
            lines.append(f"  hint: {finding.hint}")
    return lines


def _node_rows(nodes: Sequence[GraphNode], all_nodes: bool) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    lifted = [node for node in nodes if node.lifted]
    for node in nodes:
        if node.lifted and not all_nodes:
            continue
        where = f"{display_path(node.path)}:{node.line}" if node.path else ""
        rows.append((node.name, node.op, node.target, where, node.source or "", node.module or ""))
    if lifted and not all_nodes:
        modules = sorted({node.module for node in lifted if node.module})
        rows.insert(
            0,
            (
                f"({len(lifted)} lifted)",
                "placeholder",
                "parameters and buffers",
                "",
                "--all-nodes lists them",
                ", ".join(modules[:1]) + (f" and {len(modules) - 1} more" if modules[1:] else ""),
            ),
        )
    return rows


def write_full(views: Sequence[ProbeView], out: IO[str], all_nodes: bool) -> None:
    from rich.table import Table

    from breaklint.render import plain_console

    console = plain_console(out, width=1000)  # a file gets whole rows, never wrapped cells
    for view in views:
        result = view.result
        console.print(verdict(view))
        if result.traceback:
            console.print(result.traceback.rstrip())
        for graph in result.graphs:
            _write_graph(console, view, graph, len(result.graphs), all_nodes)
        for item in result.trailing:
            console.print("after the last graph:")
            for line in _break_lines(view.view(item)):
                console.print(f"  {line}")
        if view.cut:
            console.print("modules split across graphs:")
            for anchor in view.cut:
                graphs = ", ".join(str(index) for index in anchor.graphs)
                console.print(f"  {anchor.module}: graphs {graphs}")
        if view.anchors:
            table = Table("module", "output anchor", "graph", title=None, box=None)
            for anchor in view.anchors:
                table.add_row(anchor.module, anchor.anchor, str(anchor.anchor_graph))
            console.print("module output anchors (what --wrap MODULE wraps):")
            console.print(table)
        for wrap in result.wraps:
            console.print(f"wrap {wrap.spec}: {'ok' if wrap.ok else 'failed'}: {wrap.message}")
        console.print("")


def _write_graph(
    console: Any, view: ProbeView, graph: CapturedGraph, count: int, all_nodes: bool
) -> None:
    from rich.table import Table

    console.print(f"graph {graph.index} of {count}")
    for item in graph.after:
        for line in _break_lines(view.view(item)):
            console.print(f"  {line}")
    table = Table("node", "op", "target", "source", "code", "module", box=None)
    for row in _node_rows(graph.nodes, all_nodes):
        table.add_row(*row)
    console.print(table)


def to_json(views: Sequence[ProbeView]) -> dict[str, Any]:
    """The JSON report: its schema is in README.md (`breaklint graph`)."""
    return {"version": JSON_VERSION, "probes": [_probe_json(view) for view in views]}


def _probe_json(view: ProbeView) -> dict[str, Any]:
    result = view.result
    return {
        "probe": f"{result.probe.path}::{result.probe.name}",
        "status": result.status.value,
        "error": result.error,
        "traceback": result.traceback,
        "editable": view.editable,
        "graph_count": len(result.graphs),
        "frames_skipped": result.frames_skipped,
        "graphs": [
            {
                "index": graph.index,
                "after": [view.view(item).to_json() for item in graph.after],
                "nodes": [
                    {
                        "name": node.name,
                        "op": node.op,
                        "target": node.target,
                        "path": display_path(node.path) if node.path else None,
                        "line": node.line,
                        "source": node.source,
                        "module": node.module,
                        "modules": list(node.modules),
                        "lifted": node.lifted,
                    }
                    for node in graph.nodes
                ],
            }
            for graph in result.graphs
        ],
        "trailing_breaks": [view.view(item).to_json() for item in result.trailing],
        "modules": [
            {
                "module": anchor.module,
                "graphs": list(anchor.graphs),
                "anchor": anchor.anchor,
                "anchor_graph": anchor.anchor_graph,
            }
            for anchor in view.anchors
        ],
        "cut_modules": [anchor.module for anchor in view.cut],
        "wraps": [
            {
                "spec": wrap.spec,
                "ok": wrap.ok,
                "message": wrap.message,
                "graph": wrap.graph,
                "node": wrap.node,
                "module": wrap.module,
                "seen": wrap.seen,
            }
            for wrap in result.wraps
        ],
        "wrapped_graph_count": result.wrapped_graphs,
        "outputs_differ": result.outputs_differ,
    }


_EXAMPLE = """

# Usage: the edit `breaklint graph` checked on {key}.
# Run this file to repeat it: each wrapper's hook prints what it saw.
PROBE_FILE = {path!r}
PROBE_NAME = {name!r}


def _example() -> None:
    import importlib.util
    import os
    import sys

    sys.path.insert(0, os.path.dirname(PROBE_FILE))
    spec = importlib.util.spec_from_file_location("probe_module", PROBE_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.manual_seed(0)
    returned = getattr(module, PROBE_NAME)()
    model, args, kwargs = returned if len(returned) == 3 else (*returned, {{}})
    torch.manual_seed(0)
    expected = model(*args, **kwargs)
    backend, wrappers = make_backend(WRAPS)
    for key, wrapper in wrappers.items():
        wrapper.register_forward_hook(
            lambda module, inputs, output, key=key: print(f"{{key}}: saw {{describe(output)}}")
        )
    torch._dynamo.reset()
    torch.manual_seed(0)
    got = torch.compile(model, backend=backend)(*args, **kwargs)
    problem = difference(expected, got)
    print("outputs equal eager (torch.equal)" if problem is None else f"differ: {{problem}}")


if __name__ == "__main__":
    _example()
"""


def backend_source(result: GraphResult) -> str:
    """A self-contained module (torch only) with the backend that makes `result`'s wraps,
    and a usage example on its probe: the worker's own wrapping code, with WRAPS filled in."""
    template = (Path(__file__).parent / "dynamic" / "wrap_backend.py").read_text(encoding="utf-8")
    wraps: dict[int, list[str]] = {}
    for wrap in result.wraps:
        if wrap.ok and wrap.graph is not None and wrap.node is not None:
            wraps.setdefault(wrap.graph, []).append(wrap.node)
    filled = {graph: tuple(dict.fromkeys(names)) for graph, names in wraps.items()}
    empty = "WRAPS: dict[int, tuple[str, ...]] = {}"
    assert empty in template, "wrap_backend.py declares WRAPS as the template expects"
    text = template.replace(empty, f"WRAPS: dict[int, tuple[str, ...]] = {filled!r}")
    probe = result.probe
    key = f"{display_path(probe.path)}::{probe.name}"
    return text + _EXAMPLE.format(key=key, path=os.path.abspath(probe.path), name=probe.name)
