"""The torch classes whose code Dynamo skips (`SKIPPED_TORCH_CLASSES`, BL520), checked against
Dynamo: making each, by every name the data lists, is flagged, and breaks the graph under
Dynamo 2.13 with a recording backend; a method of one held in a local is flagged and breaks
too."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths
from breaklint.knowledge.curated import SKIPPED_TORCH_CLASSES
from conftest import compile_and_count

# How each class is made in the forms, by the name the data lists it under.
ARGUMENTS = {
    "torch.quasirandom.SobolEngine": "dimension=2, seed=0",
    "torch.amp.GradScaler": '"cpu"',
    "torch.amp.grad_scaler.GradScaler": '"cpu"',
    "torch.utils.data.TensorDataset": "y",
    "torch.utils.data.dataset.TensorDataset": "y",
}
# A method of each object, called on the local holding it, where it is not `__init__` alone.
METHODS = {
    "torch.quasirandom.SobolEngine": "made.draw(2).sum()",
    "torch.amp.GradScaler": "made.scale(y.sum())",
}


def source_of(name: str, method: str | None) -> str:
    module, _, cls = name.rpartition(".")
    use = f"    y = y + {method}\n" if method else ""
    return (
        f"import torch\nfrom {module} import {cls}\n\n\n"
        "def f(x):\n"
        "    y = x * 2\n"
        f"    made = {cls}({ARGUMENTS[name]})\n"
        f"{use}"
        "    return y + 1\n\n\n"
        "compiled = torch.compile(f)\n"
    )


def test_every_class_has_a_form() -> None:
    assert ARGUMENTS.keys() == SKIPPED_TORCH_CLASSES.keys()


@pytest.mark.parametrize("name", sorted(SKIPPED_TORCH_CLASSES))
def test_making_one_is_flagged_and_breaks(name: str, tmp_path: Path) -> None:
    source = source_of(name, None)
    path = tmp_path / "form.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings
    assert [(f.line, f.code) for f in findings] == [(7, "BL520")]
    graphs, breaks = compile_and_count(source, "(f, (torch.arange(6.0),))")
    assert (graphs, breaks) == (2, 1)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_a_method_of_one_is_flagged_and_breaks(name: str, tmp_path: Path) -> None:
    source = source_of(name, METHODS[name])
    path = tmp_path / "form.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1).findings
    assert [(f.line, f.code) for f in findings] == [(7, "BL520"), (8, "BL520")]
    _, breaks = compile_and_count(source, "(f, (torch.arange(6.0),))")
    assert breaks == 2  # the making, then the method
