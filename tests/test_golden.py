"""Golden files: realistic modules beside the exact concise output breaklint gives for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_breaklint

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("*.py"))


def expected_and_actual(case: Path, *options: str, expected: Path) -> tuple[str, str]:
    done = run_breaklint(
        "--isolated",
        "--no-cache",
        "--output-format",
        "concise",
        "-q",
        *options,
        case.name,
        cwd=GOLDEN,
    )
    assert done.returncode == (1 if expected.read_text() else 0), done.stderr
    return expected.read_text(encoding="utf-8"), done.stdout


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.stem)
def test_golden(case: Path) -> None:
    expected, actual = expected_and_actual(case, expected=case.with_suffix(".txt"))
    assert actual == expected


def test_training_loop_outside_compiled_code_is_quiet_by_default() -> None:
    assert (GOLDEN / "training_loop.txt").read_text() == ""


def test_training_loop_is_flagged_with_scope_all() -> None:
    case = GOLDEN / "training_loop.py"
    expected, actual = expected_and_actual(
        case, "--scope", "all", expected=GOLDEN / "training_loop.scope-all.txt"
    )
    assert actual == expected
    assert [line.split()[1] for line in actual.splitlines()] == [
        "BL202",
        "BL509",
        "BL401",
        "BL101",
        "BL102",
    ]
