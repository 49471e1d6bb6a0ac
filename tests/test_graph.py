"""`breaklint graph`: the captured graphs, the editability verdict, `--wrap` and
`--emit-backend`, end to end through the CLI in a subprocess, and the wrap names resolved on
plain data (no torch needed for those)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from breaklint.dynamic.editability import is_editable, module_anchors, resolve_wrap
from breaklint.dynamic.model import (
    Break,
    CapturedGraph,
    GraphNode,
    GraphResult,
    Probe,
    ProbeStatus,
)
from breaklint.findings import BreakKind, Evidence
from conftest import REPO, corpus_line, run_breaklint

GRAPH = REPO / "tests" / "graph"
SEED = GRAPH / "seed_model.py"


def _node(name: str, op: str = "call_function", modules: tuple[str, ...] = ()) -> GraphNode:
    return GraphNode(name, op, "mul", "/m.py", 3, "y = x * 2", modules, lifted=False)


def _break(line: int) -> Break:
    texts = dict.fromkeys(("explanation", "reason", "bytecode", "instruction"), "")
    gb = {"gb_id": "GB0059", "gb_type": "Failed to trace builtin operator", "gb_url": None}
    evidence = Evidence(BreakKind.GRAPH_BREAK, "f", hints=(), probe="p", stack=(), **texts, **gb)
    return Break("/elsewhere/hook.py", line, 5, 10, evidence)


# Two graphs: `block` is cut by the break at hook.py:17; `late` lies only after it.
TWO = (
    CapturedGraph(1, (_node("x"), _node("a", modules=("block",)), _node("output", "output")), ()),
    CapturedGraph(2, (_node("late"), _node("b", modules=("block",))), (_break(17),)),
)


def test_a_bare_name_resolves_in_the_first_graph() -> None:
    target = resolve_wrap("x", TWO)
    assert (target.graph, target.node, target.failure) == (1, "x", None)


def test_no_such_node_names_the_closest() -> None:
    assert resolve_wrap("lat", TWO).failure == (
        "no node or module named 'lat' in the graphs; closest: late"
    )


def test_a_node_after_a_break_names_the_break() -> None:
    assert resolve_wrap("late", TWO).failure == (
        "node 'late' is in graph 2, after the graph break at /elsewhere/hook.py:17 "
        "(GB0059 Failed to trace builtin operator): fix that break to edit the model as one "
        "graph, or name it graph2:late to edit that graph alone"
    )
    target = resolve_wrap("graph2:late", TWO)
    assert (target.graph, target.node, target.failure) == (2, "late", None)


def test_a_module_cut_by_a_break_has_no_anchor() -> None:
    assert resolve_wrap("block", TWO).failure == (
        "module 'block' is split across graphs 1, 2 by the graph break at "
        "/elsewhere/hook.py:17 (GB0059 Failed to trace builtin operator): it has no single "
        "output node to wrap"
    )
    anchors = {a.module: a for a in module_anchors(TWO)}
    assert (anchors["block"].graphs, anchors["block"].anchor) == ((1, 2), "b")


def test_graph_prefixes_are_checked() -> None:
    assert resolve_wrap("graph3:x", TWO).failure == "no graph 3: the probe captured 2 graphs"
    assert resolve_wrap("g1:x", TWO).failure == "'g1:x': write NAME or graphN:NAME"
    assert resolve_wrap("graph2:x", TWO).failure == "no node or module named 'x' in the graphs"


def test_editable_means_one_graph_no_break_no_skipped_frame() -> None:
    probe = Probe("p.py", "probe_m", 1)
    one = GraphResult(probe, ProbeStatus.OK, 0.0, graphs=TWO[:1])
    assert is_editable(one)
    assert not is_editable(GraphResult(probe, ProbeStatus.OK, 0.0, graphs=TWO))
    assert not is_editable(
        GraphResult(probe, ProbeStatus.OK, 0.0, graphs=TWO[:1], trailing=(_break(3),))
    )
    assert not is_editable(
        GraphResult(probe, ProbeStatus.OK, 0.0, graphs=TWO[:1], frames_skipped=1)
    )


def test_bad_targets_exit_2_with_one_line(tmp_path: Path) -> None:
    shutil.copy(GRAPH / "seed_probes.py", tmp_path)
    cases = {
        ("missing.py",): "breaklint: error: probe file 'missing.py' does not exist\n",
        ("seed_probes.py::probe_sed",): (
            "breaklint: error: no probe 'probe_sed' in seed_probes.py; "
            "closest: probe_seed, probe_hooked\n"
        ),
        ("seed_probes.py::probe_seed", "--emit-backend", "out.py"): (
            "breaklint: error: --emit-backend needs at least one --wrap NODE\n"
        ),
        ("seed_probes.py", "--wrap", "value", "--emit-backend", "out.py"): (
            "breaklint: error: --emit-backend needs one probe: name it as FILE::probe_name\n"
        ),
    }
    for args, message in cases.items():
        done = run_breaklint("graph", *args, cwd=tmp_path)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", message), args


@pytest.fixture
def seed_dir(tmp_path: Path) -> Path:
    pytest.importorskip("torch", reason="breaklint graph runs Dynamo")
    for name in ("seed_model.py", "seed_probes.py"):
        shutil.copy(GRAPH / name, tmp_path / name)
    return tmp_path


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def _row(lines: list[str], name: str) -> list[str]:
    """The table row of node `name`, split on runs of spaces."""
    rows = [line.split("  ") for line in lines if line.split() and line.split()[0] == name]
    assert rows, f"no row for {name}"
    return [cell.strip() for cell in rows[0] if cell.strip()]


def test_seed_graph_lists_value_and_wrapping_it_holds(seed_dir: Path) -> None:
    done = run_breaklint("graph", "seed_probes.py::probe_seed", "--wrap", "value", cwd=seed_dir)
    assert done.returncode == 0, done.stderr
    lines = _lines(done.stdout)
    line = corpus_line(SEED, "value = x[:, 0]")
    assert lines[0] == "seed_probes.py::probe_seed: editable (1 graph, no break)"
    assert _row(lines, "value") == [
        "value", "call_function", "getitem", f"seed_model.py:{line}", "value = x[:, 0]"
    ]  # fmt: skip
    assert _row(lines, "x")[-1] == "layer1"  # the module path, as the user writes it
    assert _row(lines, "(2")[0:2] == ["(2 lifted)", "placeholder"]  # grouped by default
    assert (
        "wrap value: ok: wrapped graph1:value: the hook saw Tensor(1) float32; outputs equal "
        "eager (torch.equal); graphs 1 -> 1"
    ) in lines
    every = run_breaklint("graph", "seed_probes.py::probe_seed", "--all-nodes", cwd=seed_dir)
    assert _row(_lines(every.stdout), "l_self_modules_layer1_parameters_weight_")


def test_a_printing_hook_makes_the_seed_not_editable(seed_dir: Path) -> None:
    done = run_breaklint("graph", "seed_probes.py::probe_hooked", "--wrap", "value", cwd=seed_dir)
    assert done.returncode == 1, done.stderr
    lines = _lines(done.stdout)
    line = corpus_line(SEED, 'print("layer1 gave"')
    assert lines[0] == "seed_probes.py::probe_hooked: not editable (2 graphs, 2 breaks)"
    where = f"seed_model.py:{line} (GB0059 Failed to trace builtin operator)"
    assert f"  graph break at {where} in show" in lines
    assert f'    {line} | print("layer1 gave", output.shape)' in lines
    assert (
        "    finding: BL401 print-call: `print()` is a side effect Dynamo cannot put in a graph; "
        "it breaks the graph here to run it eagerly"
    ) in lines
    assert (
        "    fix (unsafe): run it only when not compiling: `if not torch.compiler.is_compiling():`"
    ) in lines
    assert (
        f"wrap value: failed: node 'value' is in graph 2, after the graph break at {where}: fix "
        "that break to edit the model as one graph, or name it graph2:value to edit that graph "
        "alone"
    ) in lines


def test_wrap_failures_no_such_node_and_outputs_differ(seed_dir: Path) -> None:
    done = run_breaklint(
        "graph", "seed_probes.py::probe_counting", "--wrap", "scaled", "--wrap", "scald",
        cwd=seed_dir,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = _lines(done.stdout)
    assert (
        "wrap scaled: failed: outputs differ from eager with the wrapper in: output value 0: "
        "not torch.equal, max abs difference 1"
    ) in lines
    assert (
        "wrap scald: failed: no node or module named 'scald' in the graphs; closest: scaled"
        in lines
    )


# The JSON schema README.md documents, per object: `key:type`, `?` where it may be null.
_PROBE = "probe:str status:str error:str? traceback:str? editable:bool graph_count:int "
_PROBE += "frames_skipped:int graphs:list trailing_breaks:list modules:list cut_modules:list "
_PROBE += "wraps:list wrapped_graph_count:int? outputs_differ:str?"
_NODE = "name:str op:str target:str path:str? line:int? source:str? module:str? modules:list "
_NODE += "lifted:bool"
_BREAK = "path:str line:int column:int kind:str function:str gb_id:str? gb_type:str "
_BREAK += "explanation:str hints:list source:str? findings:list"
_FINDING = "code:str name:str message:str line:int hint:str? fix:str? fix_applicability:str?"
_MODULE = "module:str graphs:list anchor:str anchor_graph:int"
_WRAP = "spec:str ok:bool message:str graph:int? node:str? module:str? seen:str?"
_TYPES = {"str": str, "bool": bool, "int": int, "list": list, "dict": dict}


def _check(data: dict, schema: str) -> None:
    keys = dict(field.split(":") for field in schema.split())
    assert set(data) == set(keys), set(data) ^ set(keys)
    for key, kind in keys.items():
        if not (kind.endswith("?") and data[key] is None):
            assert isinstance(data[key], _TYPES[kind.rstrip("?")]), (key, data[key])


def test_json_follows_the_documented_schema(seed_dir: Path) -> None:
    done = run_breaklint(
        "graph", "seed_probes.py", "--wrap", "value", "--output-format", "json", cwd=seed_dir
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"version", "probes"} and report["version"] == 1
    seed, hooked, _ = report["probes"]
    for probe in report["probes"]:
        _check(probe, _PROBE)
        for graph in probe["graphs"]:
            assert set(graph) == {"index", "after", "nodes"}
            for node in graph["nodes"]:
                _check(node, _NODE)
            for item in graph["after"] + probe["trailing_breaks"]:
                _check(item, _BREAK)
                for finding in item["findings"]:
                    _check(finding, _FINDING)
        for module in probe["modules"]:
            _check(module, _MODULE)
        for wrap in probe["wraps"]:
            _check(wrap, _WRAP)
    value = next(n for n in seed["graphs"][0]["nodes"] if n["name"] == "value")
    assert (value["line"], value["source"]) == (
        corpus_line(SEED, "value = x[:, 0]"),
        "value = x[:, 0]",
    )
    assert seed["editable"] and seed["wraps"][0]["seen"] == "Tensor(1) float32"
    assert not hooked["editable"]
    (finding,) = hooked["graphs"][1]["after"][0]["findings"]
    assert (finding["code"], finding["fix_applicability"]) == ("BL401", "unsafe")


def _run_emitted(path: Path) -> list[str]:
    """The emitted backend file, run on its own in a fresh interpreter."""
    text = path.read_text(encoding="utf-8")
    assert "import breaklint" not in text and "from breaklint" not in text
    done = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, cwd=path.parent
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_emitted_backend_repeats_the_seed_edit(seed_dir: Path) -> None:
    done = run_breaklint(
        "graph", "seed_probes.py::probe_seed", "--wrap", "value", "--emit-backend", "edit.py",
        "--quiet", cwd=seed_dir,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # --quiet leaves out the progress, not what was written.
    assert done.stderr == "breaklint: wrote the backend to 'edit.py'\n"
    assert _run_emitted(seed_dir / "edit.py")[-2:] == [
        "graph1:value: saw Tensor(1) float32",
        "outputs equal eager (torch.equal)",
    ]


@pytest.mark.parametrize(
    ("probe", "node", "module"),
    [
        ("probe_gpt2", "query_states", "transformer.h.0.attn"),
        ("probe_llama", "query_states", "model.layers.0.self_attn"),
    ],
)
def test_tiny_transformers_are_editable_and_wraps_hold(
    tmp_path: Path, probe: str, node: str, module: str
) -> None:
    pytest.importorskip("torch", reason="breaklint graph runs Dynamo")
    pytest.importorskip("transformers", reason="the models are built from transformers configs")
    shutil.copy(GRAPH / "hf_probes.py", tmp_path)
    done = run_breaklint(
        "graph", f"hf_probes.py::{probe}", "--wrap", node, "--wrap", module,
        "--output-format", "json", "--emit-backend", "edit.py", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)["probes"]
    assert report["editable"] and report["graph_count"] == 1
    nodes = {n["name"]: n for n in report["graphs"][0]["nodes"]}
    assert nodes[node]["module"] == module  # the node lies in the first attention block
    anchor = next(m for m in report["modules"] if m["module"] == module)["anchor"]
    first, second = report["wraps"]
    assert (first["ok"], first["node"], second["ok"], second["node"]) == (True, node, True, anchor)
    assert "outputs equal eager (torch.equal); graphs 1 -> 1" in first["message"]
    assert first["seen"].startswith("Tensor(2, ")  # batch 2, from breaklint.hf
    table = run_breaklint("graph", f"hf_probes.py::{probe}", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert _row(_lines(table.stdout), node)[-1] == module  # the table shows the module path
    emitted = _run_emitted(tmp_path / "edit.py")
    assert emitted[-1] == "outputs equal eager (torch.equal)"
    assert {f"graph1:{node}: saw {first['seen']}", f"graph1:{anchor}: saw {second['seen']}"} <= set(
        emitted
    )


def test_skipped_frames_failing_probes_and_dead_workers(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="breaklint graph runs Dynamo")
    (tmp_path / "odd_probes.py").write_text(
        "import os\n"
        "import torch\n\n\n"
        "class Loop(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        for step in range(2):\n"
        "            print(step)\n"
        "            x = x + 1\n"
        "        return x\n\n\n"
        "def probe_loop():\n"
        "    return Loop(), (torch.ones(2),)\n\n\n"
        "def probe_raises():\n"
        "    raise ValueError('no model today')\n\n\n"
        "def probe_dies():\n"
        "    os._exit(3)\n",
        encoding="utf-8",
    )
    done = run_breaklint("graph", "odd_probes.py", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = _lines(done.stdout)
    assert (
        "odd_probes.py::probe_loop: not editable (0 graphs, 1 break, 1 frame(s) skipped)" in lines
    )
    assert (
        "  frame skipped at odd_probes.py:8 (GB0059 Failed to trace builtin operator) in "
        "Loop.forward"
    ) in lines
    codes = [line.split()[1] for line in lines if line.startswith("    finding: ")]
    assert codes == ["BL202", "BL401"]  # every finding on the statement
    assert "odd_probes.py::probe_raises: error: ValueError: no model today" in lines
    assert "odd_probes.py::probe_dies: crashed: worker exited with status 3" in lines


def test_a_break_inside_a_submodule_splits_it_across_graphs(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="breaklint graph runs Dynamo")
    shutil.copy(GRAPH / "split_probes.py", tmp_path)
    done = run_breaklint("graph", "split_probes.py", "--wrap", "block", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = _lines(done.stdout)
    line = corpus_line(GRAPH / "split_probes.py", 'print("between")')
    assert lines[0] == "split_probes.py::probe_split: not editable (4 graphs, 2 breaks)"
    cut = lines.index("modules split across graphs:")
    assert lines[cut + 1] == "  block: graphs 2, 3"
    assert (
        "wrap block: failed: module 'block' is split across graphs 2, 3 by the graph break at "
        f"split_probes.py:{line} (GB0059 Failed to trace builtin operator): it has no single "
        "output node to wrap"
    ) in lines
    # Block.forward, compiled as a frame of its own, still reads as the module `block`.
    assert _row(lines, "y")[-1] == "block"
