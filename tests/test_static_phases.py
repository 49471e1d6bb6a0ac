"""benchmarks/static_phases.py: every phase it names is a function the engine still calls by
that name, and the phases account for the whole run (no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "corpus"


def _phases(*options: str) -> tuple[str, dict[str, float]]:
    files = [str(CORPUS / "models.py"), str(CORPUS / "layers.py")]
    command = [sys.executable, str(REPO / "benchmarks" / "static_phases.py"), *options, *files]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=True)
    first, *rows = done.stdout.splitlines()
    shares = {}
    for row in rows:
        match = re.fullmatch(r"\s*[\d.]+ s\s+([\d.]+)%  (.+)", row)
        assert match, row
        shares[match[2]] = float(match[1])
    return first, shares


def test_each_phase_is_timed_once_and_they_add_up_to_the_run():
    first, shares = _phases()
    assert re.fullmatch(r"2 files, [\d.]+ s of CPU \(--jobs 1 --no-cache\)", first)
    assert {"parse", "index (compile-stage notes and the rare compile included)"} <= set(shares)
    assert "rules: the walk" in shares and "imports, CLI, discovery" in shares
    assert not any(phase.startswith("cache:") for phase in shares)
    assert abs(sum(shares.values()) - 100) < 1.5  # each share rounded to a tenth


def test_with_a_cache_its_costs_are_phases_too():
    first, shares = _phases("--cache", "--output-format", "json")
    assert first.endswith("(--jobs 1, an empty cache)")
    assert "cache: json.dumps and the write" in shares
    assert "report (edits for JSON included)" in shares
