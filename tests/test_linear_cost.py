"""The static phase's work grows linearly with the file: counted in lines of Python executed,
never timed (speed goes in benchmarks/large_file.py)."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from breaklint.checker import check_file
from breaklint.findings import Finding
from breaklint.scope import ScopeOptions

BLOCK = """
def helper_{n}(x):
    return x.sum()


class Block{n}(nn.Module):
    def forward(self, x):
        {ignore}
        value = x.max().item()
        if value > 0:
            {ignore}
            print("block", value)
        return x * helper_{n}(x)
"""


def _module(path: Path, blocks: int, ignore: str) -> str:
    text = "import torch\nfrom torch import nn\n" + "".join(
        textwrap.dedent(BLOCK.format(n=n, ignore=ignore)) for n in range(blocks)
    )
    path.write_text(text, encoding="utf-8")
    return str(path)


def _lines_executed(action: Callable[[], object]) -> int:
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        count += event == "line"
        return tracer

    sys.settrace(tracer)
    try:
        action()
    finally:
        sys.settrace(None)
    return count


def _checked(path: str) -> list[Finding]:
    result = check_file(path, [], "big", frozenset({"BL101", "BL401"}), ScopeOptions())
    return [finding for checked in result.checked for finding in checked.findings]


@pytest.mark.parametrize("ignore", ["", "# breaklint: ignore"])
def test_four_times_the_file_is_four_times_the_work(tmp_path, ignore):
    _checked(_module(tmp_path / "warm.py", 4, ignore))  # rules imported and set up
    small = _module(tmp_path / "small.py", 40, ignore)
    large = _module(tmp_path / "large.py", 160, ignore)
    assert _lines_executed(lambda: _checked(large)) / _lines_executed(lambda: _checked(small)) < 4.4


def test_joining_four_times_the_findings_is_four_times_the_work(tmp_path):
    from breaklint.dynamic.join import join

    def joined(path: str) -> Callable[[], object]:
        findings = _checked(path)
        return lambda: join(findings, [], lambda code, path: True)

    joined(_module(tmp_path / "warm.py", 4, ""))()
    small = joined(_module(tmp_path / "small.py", 40, ""))
    large = joined(_module(tmp_path / "large.py", 160, ""))
    assert _lines_executed(large) / _lines_executed(small) < 4.4
