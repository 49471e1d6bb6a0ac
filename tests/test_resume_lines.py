"""Breaks in the functions Dynamo resumes in after a graph break are placed on the statement
that broke, not on the line Dynamo 2.13 names (see breaklint/dynamic/linetable.py).

tests/projects/resume_lines: `Net.forward` breaks in `neighbours` (graphs.py), then, after a
method call written on a line below its object (`).mul(`), on `int(index.max())` at
model.py:21. Dynamo names line 25, `Head.__init__`'s.
"""

from __future__ import annotations

import dis
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from breaklint.dynamic.linetable import source_position
from conftest import REPO, run_breaklint

PROJECT = Path(__file__).parent / "projects" / "resume_lines"
BREAKING_LINE = 21  # `return embedding.sum(0) * int(index.max())`
DYNAMO_LINE = 25  # `def __init__(self, width):` of the next class

_CHAINED = """
def chained(x, scale):
    y = x.sin(
        1,
        2,
    ).mul(scale)
    return y.cos(
    ).add(scale)
"""


def _codes(code: types.CodeType) -> list[types.CodeType]:
    inner = [
        c for const in code.co_consts if isinstance(const, types.CodeType) for c in _codes(const)
    ]
    return [code, *inner]


def _positions(code: types.CodeType) -> list[tuple[int | None, ...] | None]:
    found = []
    for instruction in dis.get_instructions(code):
        place = source_position(code, instruction.offset)
        found.append(
            None if place is None else (place.line, place.end_line, place.column, place.end_column)
        )
    return found


def _expected(code: types.CodeType) -> list[tuple[int | None, ...] | None]:
    return [
        None if i.positions is None or i.positions.lineno is None else tuple(i.positions)
        for i in dis.get_instructions(code)
    ]


def test_positions_are_cpythons_for_code_cpython_compiled() -> None:
    source = (REPO / "breaklint" / "dynamic" / "torch_shim.py").read_text()
    codes = _codes(compile(source + _CHAINED, "torch_shim.py", "exec"))
    assert len(codes) > 50
    for code in codes:
        assert _positions(code) == _expected(code), code.co_name


def test_positions_are_the_source_lines_of_code_dynamo_assembled() -> None:
    pytest.importorskip("torch", reason="Dynamo's own assembler writes the table")
    from torch._dynamo.bytecode_transformation import transform_code_object

    namespace: dict[str, object] = {}
    exec(compile(_CHAINED, "chained.py", "exec", dont_inherit=True), namespace)
    original = namespace["chained"].__code__  # type: ignore[attr-defined]
    assembled, _ = transform_code_object(original, lambda instructions, options: None)
    # What Dynamo writes: the lines after `).mul(` move down by its step, 3, and after
    # `).add(` by 1 more (`dis` says so).
    dynamo_lines = [i.positions.lineno for i in dis.get_instructions(assembled)]
    assert dynamo_lines != [i.positions.lineno for i in dis.get_instructions(original)]
    assert max(dynamo_lines) == 8 + 3 + 1
    assert _positions(assembled) == _expected(original)


def test_dynamos_instructions_are_found_at_their_offsets_in_the_code() -> None:
    pytest.importorskip("torch", reason="Dynamo cleans the instructions up")
    from torch._dynamo.bytecode_transformation import cleaned_instructions

    from breaklint.dynamic.torch_shim import _code_offset

    # A branch over more than 255 code units jumps with an EXTENDED_ARG, which Dynamo drops:
    # its offsets after it are 2 bytes short of the code's.
    body = "".join(f"        x = x.add({n})\n" for n in range(60))
    source = f"def long(x):\n    if x.sum():\n{body}    return x.mul(2).item()\n"
    namespace: dict[str, object] = {}
    exec(compile(source, "long.py", "exec", dont_inherit=True), namespace)
    code = namespace["long"].__code__  # type: ignore[attr-defined]
    assert "EXTENDED_ARG" in {i.opname for i in dis.get_instructions(code)}
    instructions = cleaned_instructions(code)
    call = [i for i in instructions if i.opname == "CALL"][-1]  # `.item()`
    (real,) = [i for i in dis.get_instructions(code) if i.opname == "CALL"][-1:]
    assert call.offset != real.offset
    assert _code_offset(code, call) == real.offset


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    pytest.importorskip("torch", reason="the probe runs under Dynamo: needs torch")
    done = run_breaklint(
        *("--isolated", "--no-cache", "--output-format", "json", "--jobs", "1"),
        *("--probes", str(PROJECT / "probes" / "probes.py"), str(PROJECT)),
        cwd=tmp_path_factory.mktemp("run"),
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def test_dynamo_names_another_functions_line() -> None:
    pytest.importorskip("torch", reason="needs Dynamo")
    code = f"""
import json, os, sys, torch, torch._dynamo
sys.path.insert(0, {str(PROJECT)!r})
from model import Net
explained = torch._dynamo.explain(Net())({{"x": torch.linspace(-1.0, 1.0, 5)}})
print(json.dumps([(os.path.basename(r.user_stack[-1].filename), r.user_stack[-1].lineno)
                  for r in explained.break_reasons]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = json.loads(done.stdout.splitlines()[-1])
    assert ["graphs.py", 2] in lines and ["model.py", DYNAMO_LINE] in lines
    assert ["model.py", BREAKING_LINE] not in lines


def test_findings_are_on_the_statements_that_broke(report: dict) -> None:
    found = [
        (os.path.relpath(f["path"], PROJECT), f["line"], f["column"], f["code"], f["status"])
        for f in report["findings"]
    ]
    # No BL900 at Dynamo's line: the static finding on the statement is confirmed.
    assert found == [
        ("graphs.py", 2, 12, "BL301", "confirmed"),
        ("model.py", BREAKING_LINE, 35, "BL102", "confirmed"),
    ]
    moved = report["findings"][1]
    assert (moved["function"], moved["dynamo_line"]) == ("Net.forward", DYNAMO_LINE)
    assert moved["instruction"].startswith("CALL")
    assert report["findings"][0]["dynamo_line"] is None


def test_probe_counts_the_splits_at_the_true_line(report: dict) -> None:
    (probe,) = report["probes"]
    rows = [
        (Path(b["path"]).name, b["line"], b["dynamo_line"], b["splits_per_call"])
        for b in probe["breaks_by_cost"]
    ]
    assert rows == [("model.py", BREAKING_LINE, DYNAMO_LINE, 1), ("graphs.py", 2, None, 0)]


def test_the_full_output_names_dynamos_line(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the probe runs under Dynamo: needs torch")
    done = run_breaklint(
        *("--isolated", "--no-cache", "--jobs", "1", "--no-variants"),
        *("--probes", str(PROJECT / "probes" / "probes.py"), str(PROJECT / "model.py")),
        cwd=tmp_path,
        env={"NO_COLOR": "1", "COLUMNS": "200"},
    )
    assert done.returncode == 1, done.stderr
    assert f"model.py:{BREAKING_LINE}:35: BL102 [error, confirmed]" in done.stdout
    assert (
        f"  = dynamo line: Dynamo's messages (TORCH_LOGS) say line {DYNAMO_LINE}: it misnumbers "
        "the lines of a function it resumes in after a break; the breaking instruction is here"
    ) in done.stdout
