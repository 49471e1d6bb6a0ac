"""Every notion of a line (positions, suppressions, rendering, fixes) is the parser's: `\n`,
`\r\n` and a lone `\r` all end one."""

from __future__ import annotations

import ast

import pytest

from breaklint.source import source_lines

MODEL = [
    "import torch",
    "from torch import nn",
    "class M(nn.Module):",
    "    def forward(self, x):",
    "        print(x)",
    "        return x.item()",
]


def test_source_lines_are_the_lines_python_numbers():
    # Form feeds and Unicode separators in a comment end no line, for Python or for breaklint.
    endings = ["\r", "\r\n", "\n", "\r", "\r", "\n", "\r\n"]
    text = "".join(f"v{i}  # a\x0cb\x1cc\u2028d{ending}" for i, ending in enumerate(endings))
    lines = source_lines(text)
    assert "".join(lines) == text
    for statement in ast.parse(text).body:
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Name)
        assert lines[statement.lineno - 1].startswith(statement.value.id)
    assert len(lines) == len(endings) + 1  # and the empty rest after the last ending


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"])
def test_positions_and_noqa_with_every_line_ending(breaklint, tmp_path, ending):
    lines = [*MODEL[:4], "        print(x)  # noqa: BL401", MODEL[5]]
    (tmp_path / "m.py").write_bytes(ending.join(lines).encode() + ending.encode())
    result = breaklint("m.py", "--output-format", "concise", "--no-cache")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "m.py:6:16: BL101 [error] `.item()` turns a tensor into a Python number: Dynamo breaks "
        "the graph here"
    ]
    assert "Traceback" not in result.stderr


def test_own_line_ignore_and_skip_file_after_a_lone_cr(breaklint, tmp_path):
    lines = [*MODEL[:4], "        # breaklint: ignore[BL401]", *MODEL[4:]]
    (tmp_path / "m.py").write_bytes("\r".join(lines).encode() + b"\r")
    (tmp_path / "skipped.py").write_bytes(b"x = 1\r# breaklint: skip-file\r" + MODEL[5].encode())
    result = breaklint(".", "--output-format", "concise", "--no-cache")
    assert result.stdout.splitlines() == [
        "m.py:7:16: BL101 [error] `.item()` turns a tensor into a Python number: Dynamo breaks "
        "the graph here"
    ]


def test_full_output_shows_the_flagged_line_of_a_cr_file(breaklint, tmp_path):
    (tmp_path / "m.py").write_bytes("\r".join(MODEL).encode())
    result = breaklint("m.py", "--no-cache", "--select", "BL101")
    assert "return x.item()" in result.stdout
    assert "print(x)" not in result.stdout


def test_unsafe_fix_after_a_stray_cr_guards_the_flagged_statement(breaklint, tmp_path):
    # One stray `\r` before the class shifts every later line by one for the parser.
    text = "import torch\nx = 1\rclass M(torch.nn.Module):\n    def forward(self, x):\n"
    text += "        print(x)\n        return x\n"
    (tmp_path / "m.py").write_bytes(text.encode())
    result = breaklint("m.py", "--fix", "--unsafe-fixes", "--no-cache")
    fixed = (tmp_path / "m.py").read_bytes().decode()
    assert "Fixed 1 finding." in result.stderr
    assert fixed == (
        "import torch\nx = 1\rclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        if not torch.compiler.is_compiling():\n            print(x)\n"
        "        return x\n"
    )


def test_an_undecodable_byte_is_reported_on_its_line_after_lone_crs(breaklint, tmp_path):
    (tmp_path / "latin.py").write_bytes(b"x = 1\ry = 2\r\nname = '\xe9t\xe9'\n")
    result = breaklint("latin.py", "--output-format", "concise", "--no-cache")
    assert result.stdout.startswith("latin.py:3:1: BL001 [error] cannot decode file as utf-8: ")
