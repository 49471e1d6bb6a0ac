"""A file whose functions the project's scope changes is checked again with the index of its
first check (`checker.recheck_file`): each function is found again wherever it is defined."""

from __future__ import annotations

from pathlib import Path

from breaklint.config import Settings
from breaklint.engine import lint_paths

HELPERS = """
import functools
import sys


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


@traced
def decorated(x):
    return x.item()


if sys.version_info >= (3, 8):
    def branch(x):
        return x.tolist()
else:
    def branch(x):
        return x


try:
    import numpy
except ImportError:
    pass
else:
    def guarded(x):
        print(x)
        return x


class Outer:
    class Inner:
        @staticmethod
        def nested(x):
            return int(x.sum())
"""

MODEL = """
import torch

from helpers import Outer, branch, decorated, guarded


class Model(torch.nn.Module):
    def forward(self, x):
        return decorated(x) + branch(x) + guarded(x) + Outer.Inner.nested(x)
"""


def test_functions_reached_from_another_file_are_checked_wherever_defined(
    tmp_path: Path,
) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS.lstrip(), encoding="utf-8")
    (tmp_path / "model.py").write_text(MODEL.lstrip(), encoding="utf-8")
    files = [str(tmp_path / "helpers.py"), str(tmp_path / "model.py")]
    findings = lint_paths(files, Settings(root=tmp_path), jobs=1, use_cache=False).findings
    found = {(Path(f.path).name, f.range.line, f.code) for f in findings}
    assert {
        ("helpers.py", 15, "BL101"),  # `x.item()` in the decorated helper
        ("helpers.py", 20, "BL103"),  # `x.tolist()` in the `if` branch's definition
        ("helpers.py", 32, "BL401"),  # `print(x)` in the `try`'s `else`
        ("helpers.py", 40, "BL102"),  # `int(...)` in a nested class's method
    } <= found
    assert not any(f.code == "BL002" for f in findings)  # no function went missing
