"""Suppression comments, as a user writes them."""

from __future__ import annotations

import pytest

HEADER = """
import torch


class Scale(torch.nn.Module):
    def forward(self, x):
"""


def lint(breaklint, write, body: str) -> list[str]:
    write("model.py", HEADER + body)
    return breaklint(
        "model.py", "--output-format", "concise", "--select", "BL101"
    ).stdout.splitlines()


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: BL101", "# NOQA:BL101", "# noqa: E501, BL101", "  #noqa:BL101 because"],
)
def test_noqa_on_the_flagged_line_suppresses(breaklint, write, comment):
    assert lint(breaklint, write, f"        return x.max().item()  {comment}\n") == []


def test_noqa_for_another_code_does_not_suppress(breaklint, write):
    found = lint(breaklint, write, "        return x.max().item()  # noqa: BL102\n")
    assert [line.split(" ")[:2] for line in found] == [["model.py:6:16:", "BL101"]]


def test_noqa_on_another_line_does_not_suppress(breaklint, write):
    body = "        # noqa: BL101\n        return x.max().item()\n"
    assert len(lint(breaklint, write, body)) == 1


def test_own_line_ignore_above_a_statement(breaklint, write):
    body = (
        "        # breaklint: ignore[BL101]\n"
        "        scale = (\n"
        "            x.max().item()\n"
        "        )\n"
        "        return x * x.min().item()\n"
    )
    assert lint(breaklint, write, body) == [
        "model.py:10:20: BL101 [error] `.item()` turns a tensor into a Python number: "
        "Dynamo breaks the graph here"
    ]


def test_bare_own_line_ignore_and_a_comment_block(breaklint, write):
    body = (
        "        # breaklint: ignore\n"
        "        # the scale is read once per call on purpose\n"
        "        return x * x.max().item()\n"
    )
    assert lint(breaklint, write, body) == []


def test_ignore_above_a_compound_statement_covers_only_its_header(breaklint, write):
    body = (
        "        # breaklint: ignore[BL101]\n"
        "        for _ in range(int(x.max().item())):\n"
        "            x = x * x.min().item()\n"
        "        return x\n"
    )
    found = lint(breaklint, write, body)
    assert [line.split(": ")[0] for line in found] == ["model.py:8:21"]


def test_ignore_for_another_code_does_not_suppress(breaklint, write):
    body = "        # breaklint: ignore[BL102]\n        return x.max().item()\n"
    assert len(lint(breaklint, write, body)) == 1


def test_skip_file(breaklint, write):
    write("model.py", "# breaklint: skip-file\n" + HEADER + "        return x.max().item()\n")
    result = breaklint("model.py")
    assert result.returncode == 0
    assert result.stdout == ""


def test_skip_file_inside_a_string_does_not_skip(breaklint, write):
    source = 'NOTE = """\n# breaklint: skip-file\n"""' + HEADER + "        return x.max().item()\n"
    write("model.py", source)
    assert breaklint("model.py").returncode == 1
