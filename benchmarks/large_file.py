"""The static phase on one generated 10 MB module, against `ast.parse` of the same file.

    .venv/bin/python benchmarks/large_file.py [--megabytes 10] [--repeat 1]

Writes the module twice into a temporary folder, once plain and once with a
`# breaklint: ignore` comment above every flagged statement, and runs in a fresh process each:
`ast.parse` of the file (timed inside its process, after reading it), then `breaklint FILE
--no-cache --jobs 1 --output-format concise` end to end (interpreter start to exit). It prints
the seconds (best of --repeat) and the peak resident memory (MB, the process's own maximum) of
each, and breaklint's ratio to `ast.parse`. The targets: at most 3x the time of
`ast.parse` and 500 MB. Cost must grow linearly with the file: the module is many modules and
helpers in a row, each with findings, so anything that rescans the file per function or per
finding shows here as it did (a 10 MB file once took 21 minutes and 1.9 GB).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIME_RATIO_TARGET = 3.0
PEAK_MB_TARGET = 500

BLOCK = '''

def helper_{n}(x, scale={n}):
    y = x * scale
    for i in range(3):
        y = y + i
    return y.sum()


class Block{n}(nn.Module):
    """Block number {n}."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.scale = {n}

    def forward(self, x):
        h = self.linear(x)
{ignore}        value = h.max().item()
        if value > 0:
{ignore}            print("block {n}", value)
        h = h + helper_{n}(x)
        return h * self.scale
'''


def module_text(megabytes: float, suppressed: bool) -> str:
    ignore = "        # breaklint: ignore\n" if suppressed else ""
    head = "import torch\nfrom torch import nn\n"
    parts, size, n = [head], len(head), 0
    while size < megabytes * 1_000_000:
        block = BLOCK.format(n=n, ignore=ignore)
        parts.append(block)
        size += len(block)
        n += 1
    return "".join(parts)


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(seconds, peak MB, stdout) of one fresh process."""
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, peak_kb / 1024, result.stdout


# Parsing in a child of its own: RUSAGE_CHILDREN reports the largest child so far, so each
# measurement runs under a fresh parent too (see `_one`).
# The floor is the parse alone, timed inside its process: no interpreter start, no reading.
PARSE = (
    "import ast, sys, time; text = open(sys.argv[1], encoding='utf-8').read(); "
    "started = time.perf_counter(); ast.parse(text); print(time.perf_counter() - started)"
)


def _one(kind: str, path: str) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    if kind == "parse":
        command = [sys.executable, "-c", PARSE, path]
    else:
        command = [sys.executable, "-m", "breaklint", path, "--no-cache", "--jobs", "1"]
        command += ["--output-format", "concise", "--quiet"]
    seconds, peak, stdout = measured(command, env)
    if kind == "parse":
        seconds, stdout = float(stdout), ""
    print(f"{seconds:.3f} {peak:.1f} {stdout.count(chr(10))}")


def measure(kind: str, path: str, repeat: int) -> tuple[float, float, int]:
    """Best seconds, peak MB and finding count of `repeat` runs, each under a fresh parent."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, __file__, "--one", kind, path],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        runs.append((float(out[0]), float(out[1]), int(out[2])))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        _one(*args.one)
        return
    with tempfile.TemporaryDirectory(prefix="breaklint-large-") as folder:
        print(
            f"{'module':<22} {'lines':>9} {'ast.parse':>12} {'breaklint':>12} {'ratio':>6} "
            f"{'parse MB':>9} {'lint MB':>8} {'findings':>9}"
        )
        for suppressed in (False, True):
            name = "with ignores" if suppressed else "plain"
            path = Path(folder) / f"large_{'ignored' if suppressed else 'plain'}.py"
            text = module_text(args.megabytes, suppressed)
            path.write_text(text, encoding="utf-8")
            parse_s, parse_mb, _ = measure("parse", str(path), args.repeat)
            lint_s, lint_mb, findings = measure("lint", str(path), args.repeat)
            label = f"{name} ({len(text) / 1e6:.1f} MB)"
            print(
                f"{label:<22} {text.count(chr(10)):>9} {parse_s:>11.2f}s {lint_s:>11.2f}s "
                f"{lint_s / parse_s:>5.2f}x {parse_mb:>9.0f} {lint_mb:>8.0f} {findings:>9}"
            )
        print(f"targets: at most {TIME_RATIO_TARGET:g}x ast.parse and {PEAK_MB_TARGET} MB")


if __name__ == "__main__":
    main()
