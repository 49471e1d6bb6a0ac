"""What CI reads: JUnit XML, several reports from one run, the problem matcher's severities."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

from test_cli import CLEAN_MODEL, ITEM_MODEL

import breaklint as breaklint_package

WARNING_MODEL = """
    import torch


    class Split(torch.nn.Module):
        def forward(self, x):
            torch._dynamo.graph_break()
            return x + 1
"""


def _project(write) -> None:
    write("model.py", ITEM_MODEL)
    write("split.py", WARNING_MODEL)
    write("clean.py", CLEAN_MODEL)


def _cases(document: ElementTree.Element) -> dict[str, list[ElementTree.Element]]:
    (suite,) = document.findall("testsuite")
    return {case.get("name", ""): case.findall("failure") for case in suite.findall("testcase")}


def test_junit_has_a_case_per_file_and_a_failure_per_finding(breaklint, write):
    _project(write)
    result = breaklint("model.py", "split.py", "clean.py", "--output-format", "junit")
    assert result.returncode == 1
    document = ElementTree.fromstring(result.stdout)
    assert document.tag == "testsuites"
    assert (document.get("tests"), document.get("failures"), document.get("errors")) == (
        "3",
        "2",
        "0",
    )
    cases = _cases(document)
    assert sorted(cases) == ["clean.py", "model.py", "split.py"]
    assert cases["clean.py"] == []
    (error,) = cases["model.py"]
    assert error.get("type") == "BL101"
    assert error.get("message", "").startswith("model.py:6:20: BL101 [error] `.item()` turns")
    assert "help: keep the value a tensor" in (error.text or "")
    (warning,) = cases["split.py"]
    assert warning.get("type") == "BL504"
    assert warning.get("message", "").startswith("split.py:6:9: BL504 [warning] ")


def test_clean_run_gives_passing_cases(breaklint, write):
    write("clean.py", CLEAN_MODEL)
    result = breaklint("clean.py", "--output-format", "junit")
    assert result.returncode == 0
    assert _cases(ElementTree.fromstring(result.stdout)) == {"clean.py": []}


def test_one_run_writes_concise_to_stdout_and_sarif_junit_json_files(breaklint, write, tmp_path):
    _project(write)
    (tmp_path / "reports").mkdir()
    result = breaklint(
        ".",
        *("--output-format", "concise"),
        *("--report", "sarif:reports/breaklint.sarif"),
        *("--report", "junit:breaklint.xml"),
        *("--report", "json:breaklint.json"),
    )
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [
        ["model.py:6:20:", "BL101", "[error]"],
        ["split.py:6:9:", "BL504", "[warning]"],
    ]
    sarif = json.loads((tmp_path / "reports" / "breaklint.sarif").read_text(encoding="utf-8"))
    levels = [(r["ruleId"], r["level"]) for r in sarif["runs"][0]["results"]]
    assert levels == [("BL101", "error"), ("BL504", "warning")]
    junit = ElementTree.parse(tmp_path / "breaklint.xml").getroot()
    assert {name: len(found) for name, found in _cases(junit).items()} == {
        "clean.py": 0,
        "model.py": 1,
        "split.py": 1,
    }
    findings = json.loads((tmp_path / "breaklint.json").read_text(encoding="utf-8"))["findings"]
    assert [f["code"] for f in findings] == ["BL101", "BL504"]


def test_a_bad_report_option_is_a_usage_error(breaklint, write):
    write("clean.py", CLEAN_MODEL)
    for value in ("xml:out.xml", "junit", "junit:"):
        result = breaklint("clean.py", "--report", value)
        assert result.returncode == 2
        assert f"'{value}' is not FORMAT:PATH with FORMAT one of full, concise" in result.stderr


def test_an_unwritable_report_exits_2(breaklint, write):
    write("clean.py", CLEAN_MODEL)
    result = breaklint("clean.py", "--report", "junit:missing/folder/out.xml")
    assert result.returncode == 2
    assert "breaklint: error: cannot write report to 'missing/folder/out.xml'" in result.stderr


def test_problem_matcher_recovers_each_finding_exactly(breaklint, write, tmp_path):
    matcher_file = Path(breaklint_package.__file__).parent / "problem_matcher.json"
    (matcher,) = json.loads(matcher_file.read_text(encoding="utf-8"))["problemMatcher"]
    assert "severity" not in matcher  # no default: each line says its own
    (pattern,) = matcher["pattern"]
    _project(write)
    result = breaklint(".", "--output-format", "concise", "--report", "json:out.json")
    findings = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["findings"]
    keys = ("file", "line", "column", "code", "severity", "message")
    matched = []
    for line in result.stdout.splitlines():
        match = re.match(pattern["regexp"], line)
        assert match is not None, line
        matched.append({key: match.group(pattern[key]) for key in keys})
    assert matched == [
        {
            "file": f["path"],
            "line": str(f["line"]),
            "column": str(f["column"]),
            "code": f["code"],
            "severity": f["severity"],
            "message": f["message"],
        }
        for f in findings
    ]
    assert [m["severity"] for m in matched] == ["error", "warning"]
