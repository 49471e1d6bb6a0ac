"""The command line end to end: output formats, exit codes, the JSON contract."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import breaklint as breaklint_package
from conftest import REPO, run_breaklint

ITEM_MODEL = """
    import torch


    class Scale(torch.nn.Module):
        def forward(self, x):
            return x * x.max().item()
"""
CLEAN_MODEL = """
    import torch


    class Scale(torch.nn.Module):
        def forward(self, x):
            return x * x.max()
"""
ITEM_LINE = (
    "model.py:6:20: BL101 [error] `.item()` turns a tensor into a Python number: "
    "Dynamo breaks the graph here"
)


def test_clean_file_exits_0_with_summary_on_stderr(breaklint, write):
    write("model.py", CLEAN_MODEL)
    result = breaklint("model.py")
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr.startswith("All checks passed (1 file in ")


def test_finding_exits_1_and_exit_zero_exits_0(breaklint, write):
    write("model.py", ITEM_MODEL)
    assert breaklint("model.py").returncode == 1
    result = breaklint("model.py", "--exit-zero")
    assert result.returncode == 0
    assert "BL101" in result.stdout


def test_concise_prints_exact_one_based_lines(breaklint, write):
    write("model.py", ITEM_MODEL)
    result = breaklint("model.py", "--output-format", "concise")
    assert result.stdout == ITEM_LINE + "\n"
    assert result.stderr.startswith("Found 1 finding (1 error) in 1 file in ")


def test_concise_is_sorted_and_identical_across_runs_and_jobs(breaklint, write):
    for name in ["b", "a", "c", "d", "e", "f", "g", "h", "i"]:
        write(f"pkg/{name}.py", ITEM_MODEL + "\n    def g(y):\n        return y.item()\n")
    serial = breaklint("pkg", "--output-format", "concise", "--jobs", "1").stdout
    parallel = breaklint("pkg", "--output-format", "concise", "--jobs", "2").stdout
    again = breaklint("pkg", "--output-format", "concise", "--jobs", "2").stdout
    lines = serial.splitlines()
    assert len(lines) == 9
    assert lines == sorted(lines)
    assert lines[0].startswith("pkg/a.py:6:20: BL101 ")
    assert serial == parallel == again


def test_full_output_shows_source_caret_hint_and_link_without_colour(breaklint, write):
    write("model.py", ITEM_MODEL)
    out = breaklint("model.py").stdout
    assert "\x1b[" not in out  # stdout is a pipe: no colour codes
    lines = out.splitlines()
    assert lines[0] == (
        "model.py:6:20: BL101 [error] `.item()` turns a tensor into a Python number: "
        "Dynamo breaks the graph here"
    )
    assert lines[2] == "6 |         return x * x.max().item()"
    assert lines[3] == "  |                    ^^^^^^^^^^^^^^"
    assert "  = compiled: Scale.forward" in lines
    assert any(line.startswith("  = help: keep the value a tensor") for line in lines)
    assert "  = docs: https://breaklint.readthedocs.io/en/latest/rules/BL101-tensor-item/" in lines


def test_json_contract(breaklint, write):
    write("model.py", ITEM_MODEL)
    result = breaklint("model.py", "--output-format", "json")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert set(document) == {"version", "findings", "summary"}
    (finding,) = document["findings"]
    assert finding == finding | {
        "code": "BL101",
        "name": "tensor-item",
        "severity": "error",
        "path": "model.py",
        "line": 6,
        "column": 20,
        "end_line": 6,
        "end_column": 34,
        "url": "https://breaklint.readthedocs.io/en/latest/rules/BL101-tensor-item/",
        "origin": "static",
        "status": "unverified",
        "fix": {
            "message": "keep the value a tensor: `.detach()`",
            "applicability": "unsafe",
            "rewrite": "detach",
            "target": {"line": 6, "column": 20, "end_line": 6, "end_column": 34},
            "torch": "torch",
            "adds_torch_import": False,
            "adds_imports": [],
            "edits": [
                {
                    "line": 6,
                    "column": 1,
                    "end_line": 7,
                    "end_column": 1,
                    "content": "        return x * x.max().detach()\n",
                }
            ],
        },
        "scope": "Scale.forward",
    }
    assert document["summary"]["files_checked"] == 1
    assert document["summary"]["findings"] == 1
    assert document["summary"]["by_code"] == {"BL101": 1}


def test_json_names_of_dynamo_evidence():
    """What a dynamic finding carries in JSON, by name: a contract that holds without torch
    (the dynamic tests check the same names on real breaks)."""
    from breaklint.dynamic.join import break_finding
    from breaklint.dynamic.model import Break
    from breaklint.findings import BreakKind, Evidence
    from breaklint.report import OutputOptions, Summary, write_json

    evidence = Evidence(
        kind=BreakKind.FRAME_SKIPPED,
        function="Net.forward",
        gb_id="GB7000",
        gb_type="Skip frame",
        explanation="a break in a loop",
        hints=("move it out",),
        reason="Skipping frame",
        gb_url=None,
        probe="probes.py::probe_net",
        bytecode="--> 12 CALL",
        instruction="CALL 0 @ offset 12",
        stack=("model.py:3 in forward",),
        config_knob="capture_scalar_outputs",
    )
    finding = break_finding(Break("/repo/model.py", 3, 5, 9, evidence), "model.py")
    out = io.StringIO()
    write_json([finding], out, Summary(1, 0.0), OutputOptions())
    (item,) = json.loads(out.getvalue())["findings"]
    assert (item["code"], item["origin"], item["status"]) == ("BL901", "dynamic", "confirmed")
    expected = {  # after the finding's own fields, in this order
        "kind": "frame-skipped",
        "function": "Net.forward",
        "gb_id": "GB7000",
        "gb_type": "Skip frame",
        "explanation": "a break in a loop",
        "hints": ["move it out"],
        "reason": "Skipping frame",
        "gb_url": None,
        "probe": "probes.py::probe_net",
        "bytecode": "--> 12 CALL",
        "instruction": "CALL 0 @ offset 12",
        "stack": ["model.py:3 in forward"],
        "config_knob": "capture_scalar_outputs",
        "frame_skipped": True,
        "dynamo_line": None,
        "later_call": False,
    }
    assert list(item.items())[15:] == list(expected.items())
    assert item["hint"] == (
        "move it out; Dynamo did not break here when rerun with "
        "torch._dynamo.config.capture_scalar_outputs = True"
    )


def test_github_annotations_escape_properties(breaklint, write):
    write("model.py", ITEM_MODEL)
    out = breaklint("model.py", "--output-format", "github").stdout
    assert out == (
        "::error file=model.py,line=6,col=20,endLine=6,endColumn=34,title=BL101 tensor-item::"
        "`.item()` turns a tensor into a Python number: Dynamo breaks the graph here\n"
    )


def test_output_file_gets_the_report_and_stdout_stays_empty(breaklint, write, tmp_path):
    write("model.py", ITEM_MODEL)
    result = breaklint("model.py", "--output-format", "concise", "--output-file", "report.txt")
    assert result.returncode == 1
    assert result.stdout == ""
    assert (tmp_path / "report.txt").read_text() == ITEM_LINE + "\n"


def test_default_path_is_the_current_directory(breaklint, write):
    write("model.py", ITEM_MODEL)
    result = breaklint("--output-format", "concise")
    assert result.stdout == ITEM_LINE + "\n"


def test_rule_page_and_rule_list(breaklint):
    page = breaklint("rule", "BL101")
    assert page.returncode == 0
    headings = [line for line in page.stdout.splitlines() if line.startswith("#")]
    assert headings == [
        "# BL101 tensor-item (error)",
        "## What it does",
        "## Why it breaks the graph",
        "## Example",
        "## Use instead",
        "## Fix safety",
        "## Fix 1",
        "## Fix 2",
        "## Fix 3",
        "## Fix 4",
        "## Fix 5",
        "## Fix 6",
        "## Fix 7",
        "## Fix 8",
        "## References",
    ]
    listing = breaklint("rules").stdout.splitlines()
    assert any(line.startswith("BL101  tensor-item ") for line in listing)
    assert any(line.startswith("BL001  parse-error ") for line in listing)


def test_unknown_rule_page_is_a_usage_error(breaklint):
    result = breaklint("rule", "BL999")
    assert result.returncode == 2
    assert result.stderr == "breaklint: error: unknown rule 'BL999' (see 'breaklint rules')\n"


def test_usage_error_exits_2(breaklint):
    result = breaklint("--output-format", "xml")
    assert result.returncode == 2
    assert "invalid choice: 'xml'" in result.stderr


def test_static_phase_never_imports_torch(tmp_path, write):
    write("model.py", ITEM_MODEL)
    script = (
        "import sys, breaklint.cli\n"
        "assert 'torch' not in sys.modules\n"
        "code = breaklint.cli.main(['model.py', '--output-format', 'json', '-q'])\n"
        "assert code == 1 and 'torch' not in sys.modules, sorted(sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_examples_folder_shows_the_item_finding():
    result = run_breaklint("examples", cwd=REPO)
    assert result.returncode == 1
    assert "examples/tiny_attention.py:19:47: BL101 [error]" in result.stdout
    assert "self.temperature.item()" in result.stdout


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "breaklint"
    result = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert result.stdout.startswith("breaklint ")


def test_sarif_output_validates_against_the_schema(breaklint, write):
    jsonschema = pytest.importorskip("jsonschema", reason="validating SARIF needs jsonschema")
    schema_path = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
    write("model.py", ITEM_MODEL)
    result = breaklint("model.py", "--output-format", "sarif")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    jsonschema.validate(document, json.loads(schema_path.read_text(encoding="utf-8")))
    (run,) = document["runs"]
    assert run["tool"]["driver"]["rules"][0]["id"] == "BL101"
    (sarif_result,) = run["results"]
    assert sarif_result["ruleId"] == "BL101"
    assert sarif_result["level"] == "error"
    assert sarif_result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "model.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 6, "startColumn": 20, "endLine": 6, "endColumn": 34},
    }


def test_shipped_problem_matcher_parses_concise_output(breaklint, write):
    matcher_file = Path(breaklint_package.__file__).parent / "problem_matcher.json"
    (matcher,) = json.loads(matcher_file.read_text(encoding="utf-8"))["problemMatcher"]
    (pattern,) = matcher["pattern"]
    write("model.py", ITEM_MODEL)
    line = breaklint("model.py", "--output-format", "concise").stdout.splitlines()[0]
    match = re.match(pattern["regexp"], line)
    assert match is not None
    fields = {key: match.group(pattern[key]) for key in ("file", "line", "column", "code")}
    assert fields == {"file": "model.py", "line": "6", "column": "20", "code": "BL101"}
    assert match.group(pattern["message"]).startswith("`.item()` turns a tensor")


def test_readme_main_command_shows_static_and_dynamic_together():
    pytest.importorskip("torch", reason="the dynamic phase runs Dynamo: needs torch")
    result = run_breaklint("examples/", "--probes", "examples/probes.py", cwd=REPO)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "examples/tiny_attention.py:19:47: BL101 [error, confirmed] `.item()` turns a tensor "
        "into a Python number: Dynamo breaks the graph here"
    )
    assert any(line.startswith("  = dynamo: GB0124 ") for line in lines)
    assert any(
        line.startswith("examples/probes.py::probe_tiny_attention: ok  graphs 2  breaks 1")
        for line in lines
    )


def test_rule_codes_read_from_sources_match_the_registry():
    from breaklint.codes import known_codes
    from breaklint.rule import all_rules

    assert known_codes() == list(all_rules())


RULE_WITH_ODD_DECLARATION = """
import ast

from breaklint.findings import Severity
from breaklint.rule import Rule


class SlowLen(Rule):
    code: str = (  # spelled out on purpose: any formatting declares the rule
        'BL777'
    )  # trailing comment
    name = "slow-len"
    severity = Severity.WARNING
    message = "`len()` in compiled code"
    what = why = example = use_instead = ""

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "len":
            self.report(node)
"""


def test_a_rule_declared_with_any_formatting_is_listed_and_run(tmp_path, write):
    rules = write("extra_rules/slow_len.py", RULE_WITH_ODD_DECLARATION).parent
    write("model.py", "import torch\n\n\n@torch.compile\ndef f(x):\n    return len(x)\n")
    script = (
        "import sys, breaklint.rules, breaklint.cli\n"
        f"breaklint.rules.__path__.append({str(rules)!r})\n"
        "sys.exit(breaklint.cli.main(sys.argv[1:]))\n"
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", script, *args]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)

    assert "BL777  slow-len " in run("rules").stdout
    linted = run("model.py", "--isolated", "--no-cache", "-q", "--output-format", "concise")
    assert linted.stdout == "model.py:6:12: BL777 [warning] `len()` in compiled code\n"
    assert linted.returncode == 1


def test_an_unchanged_cached_run_never_imports_the_rules(tmp_path, write):
    write("model.py", ITEM_MODEL)
    script = (
        "import sys, breaklint.cli\n"
        "assert breaklint.cli.main(['model.py', '-q', '--output-format', 'concise']) == 1\n"
        "print('breaklint.checker' in sys.modules, 'breaklint.rule' in sys.modules)\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
        ).stdout.splitlines()
        for _ in range(2)
    ]
    assert runs[0][-1] == "True True"  # the cold run checks the file
    assert runs[1][-1] == "False False"  # the warm run answers from the cache
    assert runs[0][0] == runs[1][0] == ITEM_LINE


def test_without_pygls_the_server_says_what_to_install() -> None:
    blocked = "import sys; sys.modules['pygls'] = None; from breaklint.cli import main; "
    result = subprocess.run(
        [sys.executable, "-c", blocked + "sys.exit(main(['server']))"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr == (
        "breaklint: error: breaklint server needs pygls and lsprotocol: "
        "pip install 'breaklint[lsp]'\n"
    )
