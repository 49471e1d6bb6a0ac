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
from breaklint.rule import all_rules
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


def _checked(path: str, codes: frozenset[str] = frozenset({"BL101", "BL401"})) -> list[Finding]:
    result = check_file(path, [], "big", codes, ScopeOptions())
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


DEEP = """
import torch


class Deep(torch.nn.Module):
    def forward(self, x):
        y = torch.zeros({chain})
        if {chain} > 0:
            y = y + int({chain})
        return y
"""


def test_four_times_as_deep_an_expression_is_four_times_the_work(tmp_path):
    def module(name: str, terms: int) -> str:
        path = tmp_path / name
        path.write_text(DEEP.format(chain=" + ".join(["x.sum()"] * terms)), encoding="utf-8")
        return str(path)

    every = frozenset(all_rules())
    _checked(module("warm.py", 10), every)
    small, large = module("small.py", 100), module("large.py", 400)
    work = [_lines_executed(lambda path=path: _checked(path, every)) for path in (small, large)]
    assert work[1] / work[0] < 4.4


def _chain(path: Path, calls: int) -> str:
    """A compiled function that hands its tensor down `calls` functions, the last reading it."""
    text = "import torch\n\n\n" + "".join(
        f"def step_{n}(x):\n    return step_{n + 1}(x)\n\n\n" for n in range(calls)
    )
    text += f"def step_{calls}(x):\n    return x.item()\n\n\ncompiled = torch.compile(step_0)\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_four_times_as_long_a_chain_of_calls_is_four_times_the_work(tmp_path):
    """Each function's parameters are looked up its callers (a sparse tensor passed on from
    afar, `Analysis.sparse_somewhere`): once per parameter, not once per function below it."""
    every = frozenset(all_rules())
    _checked(_chain(tmp_path / "warm.py", 5), every)
    small, large = _chain(tmp_path / "small.py", 100), _chain(tmp_path / "large.py", 400)
    work = [_lines_executed(lambda path=path: _checked(path, every)) for path in (small, large)]
    assert work[1] / work[0] < 4.4
    assert [(f.code, f.line) for f in _checked(large, every)] == [("BL101", 1605)]
