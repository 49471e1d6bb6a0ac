"""Forms of graph breaks seen in real models, each marked `# BREAK BL...` where Dynamo breaks.

The static phase must flag exactly the marked lines, and Dynamo, run on every probe of the
corpus, must confirm each finding and break nowhere else.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import corpus_markers, run_breaklint, with_libraries

CORPUS = Path(__file__).parent / "accuracy"


def marked_lines() -> set[tuple[str, int, str]]:
    """(file, line, code) of every marker in the accuracy corpus."""
    return {(m.file, m.line, m.code) for m in corpus_markers(sorted(CORPUS.glob("*.py")))}


def lint(tmp_path: Path, *options: str) -> list[dict]:
    done = run_breaklint(
        *("--isolated", "--no-cache", "--dependencies", "--output-format", "json", *options),
        str(CORPUS),
        cwd=tmp_path,
        env=with_libraries(),
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)["findings"]


def test_static_findings_are_exactly_the_marked_breaks(tmp_path: Path) -> None:
    findings = lint(tmp_path)
    assert {(Path(f["path"]).name, f["line"], f["code"]) for f in findings} == marked_lines()


def test_dynamo_confirms_every_finding_and_breaks_nowhere_else(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    findings = lint(tmp_path, "--probes", str(CORPUS), "--device", "cpu")
    unconfirmed = [
        (Path(f["path"]).name, f["line"], f["code"], f["status"])
        for f in findings
        if f["status"] != "confirmed" or f["origin"] != "static"
    ]
    assert unconfirmed == []
    assert {(Path(f["path"]).name, f["line"], f["code"]) for f in findings} == marked_lines()
