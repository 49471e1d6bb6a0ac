"""The rules' prefilter (`Rule.words`, `Rule.may_report`, `rule.rules_for`) leaves out only
rules that cannot report: every finding stays, and a function with nothing any rule looks for
is not walked at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint import checker
from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.findings import Finding
from breaklint.rule import Phase, Rule, all_rules

RULES = [rule for rule in all_rules().values() if rule.phase is Phase.STATIC]


def lint(tmp_path: Path, source: str) -> list[Finding]:
    path = tmp_path / "module.py"
    path.write_text(source.strip() + "\n", encoding="utf-8")
    # Calls into installed libraries followed: an example may call one (`Rule.example_library`).
    settings = Settings(root=tmp_path, dependencies=True)
    return lint_paths([str(path)], settings, jobs=1, use_cache=False).findings


def unfiltered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every enabled rule walks every function, as before the prefilter."""
    monkeypatch.setattr(checker, "rules_for", lambda rules, outline: list(rules))


def snippets(rule: type[Rule]) -> list[str]:
    return [rule.example, *(fix.before for fix in rule.fix_examples)]


@pytest.mark.usefixtures("installed_library")
@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_findings_of_each_example_are_those_of_every_rule_walking(
    rule: type[Rule], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for source in snippets(rule):
        filtered = lint(tmp_path, source)
        assert rule.code in {finding.code for finding in filtered}
        with monkeypatch.context() as patched:
            unfiltered(patched)
            assert lint(tmp_path, source) == filtered


ALIASED = """
import torch
from torch._dynamo import graph_break as split
import numpy as n


def step(x):
    split()
    return x * n.random.rand()


compiled = torch.compile(step)
"""


def test_a_name_imported_under_another_counts_as_what_it_imports(tmp_path: Path) -> None:
    # `split` is torch._dynamo.graph_break (BL504), `n` numpy (BL601): neither word is written
    # in the function.
    codes = {finding.code for finding in lint(tmp_path, ALIASED)}
    assert {"BL504", "BL601"} <= codes


PLAIN = """
import torch


class Block(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2
"""


def test_a_function_nothing_looks_for_is_not_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[object] = []
    walk = checker.walk
    monkeypatch.setattr(
        checker,
        "walk",
        lambda root, visitors, **options: walked.append(root) or walk(root, visitors, **options),
    )
    assert lint(tmp_path, PLAIN) == []
    assert walked == []
    # A print: BL401 looks for it, and the function is walked.
    assert lint(tmp_path, PLAIN.replace("return", "print(x)\n        return")) != []
    assert len(walked) == 1
