"""The README's CI and editor snippets parse, and the workflow's commands run as written."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

import breaklint as breaklint_package
from conftest import REPO

yaml = pytest.importorskip("yaml", reason="parsing the workflow needs PyYAML")

SECTION = (REPO / "README.md").read_text(encoding="utf-8").split("## In CI and editors")[1]


def _block(language: str) -> str:
    match = re.search(rf"```{language}\n(.*?)```", SECTION, re.DOTALL)
    assert match is not None, f"no {language} block"
    return match.group(1)


def _steps() -> list[dict]:
    workflow = yaml.safe_load(_block("yaml"))
    (job,) = workflow["jobs"].values()
    return job["steps"]


def test_workflow_commands_run_and_write_what_the_upload_reads(breaklint, write, tmp_path):
    write(
        "model.py",
        """
        import torch


        class Scale(torch.nn.Module):
            def forward(self, x):
                return x * x.max().item()
        """,
    )
    steps = _steps()
    (lint,) = [step["run"] for step in steps if step.get("run", "").startswith("breaklint ")]
    result = breaklint(*shlex.split(lint)[1:])
    assert result.returncode == 1
    assert result.stdout.startswith("model.py:6:20: BL101 [error] ")
    (upload,) = [step for step in steps if "upload-sarif" in step.get("uses", "")]
    sarif = json.loads((tmp_path / upload["with"]["sarif_file"]).read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"][0]["ruleId"] == "BL101"
    assert ElementTree.parse(tmp_path / "breaklint.xml").getroot().tag == "testsuites"


def test_workflow_adds_the_shipped_matcher():
    (step,) = [s for s in _steps() if s.get("name") == "Problem matcher"]
    command = step["run"].replace("$(python ", f"$({shlex.quote(sys.executable)} ")
    echoed = subprocess.run(["bash", "-c", command], capture_output=True, text=True).stdout
    shipped = Path(breaklint_package.__file__).parent / "problem_matcher.json"
    assert echoed == f"::add-matcher::{shipped}\n"


def test_vscode_task_uses_the_shipped_pattern():
    (task,) = json.loads(_block("json"))["tasks"]
    shipped = Path(breaklint_package.__file__).parent / "problem_matcher.json"
    (matcher,) = json.loads(shipped.read_text(encoding="utf-8"))["problemMatcher"]
    (pattern,) = matcher["pattern"]
    assert task["problemMatcher"]["pattern"] == pattern
    assert task["problemMatcher"]["owner"] == matcher["owner"]
