"""What the variant calls add to the dynamic phase: `breaklint --probes` on the corpus probes in
`tests/corpus/` (and the recompile probes in `tests/recompiles/`), with each probe's wall time
and the part of it its variant calls took (`recompiles.variants_s` in the JSON report), then
the same run end to end with `--no-variants`.

    .venv/bin/python benchmarks/variants_overhead.py [--jobs J]

The variants run on the target the probe's own call compiled, in the same worker, so they add
only their own compilations (one per guard that fails) and calls.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
CORPORA = {"corpus": ("models.py", "layers.py"), "recompiles": ("models.py",)}


def run(corpus: str, linted: tuple[str, ...], jobs: int, *extra: str) -> tuple[float, list]:
    """(seconds end to end, the JSON report's probes)."""
    with tempfile.TemporaryDirectory() as folder:
        for path in (TESTS / corpus).glob("*.py"):
            shutil.copy(path, folder)
        started = time.perf_counter()
        command = [sys.executable, "-m", "breaklint", *linted, "--probes", "probes.py"]
        options = ["--output-format", "json", "--jobs", str(jobs), "--no-cache", "--exit-zero"]
        done = subprocess.run(
            [*command, *options, *extra],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        elapsed = time.perf_counter() - started
    return elapsed, json.loads(done.stdout)["probes"]


def measure(corpus: str, linted: tuple[str, ...], jobs: int) -> None:
    elapsed, probes = run(corpus, linted, jobs)
    without, _ = run(corpus, linted, jobs, "--no-variants")
    wall = sum(p["wall_s"] for p in probes)
    added = sum(p["recompiles"]["variants_s"] for p in probes if p["recompiles"])
    calls = sum(p["recompiles"]["calls"] - 1 for p in probes if p["recompiles"])
    print(
        f"{corpus}: {len(probes)} probes, {calls} variant calls, run {elapsed:.2f}s end to end"
        f" ({without:.2f}s with --no-variants)"
    )
    print(
        f"  probes' wall time {wall:.2f}s, of which variant calls {added:.2f}s ({added / wall:.0%})"
    )
    for p in sorted(probes, key=lambda p: -(p["recompiles"] or {}).get("variants_s", 0))[:5]:
        r = p["recompiles"] or {}
        print(
            f"  {p['name']}: wall {p['wall_s']:.2f}s, variants {r.get('variants_s', 0):.2f}s"
            f" ({r.get('calls', 1) - 1} calls, {r.get('compiles', 0)} compiles)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    for corpus, linted in CORPORA.items():
        measure(corpus, linted, options.jobs)


if __name__ == "__main__":
    main()
