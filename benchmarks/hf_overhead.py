"""`breaklint --hf MODEL` end to end against the floor: one process that imports torch and
transformers, builds the same tiny model (`breaklint.hf.build`) and runs bare
`torch.compile(backend="eager")` on it once.

    .venv/bin/python benchmarks/hf_overhead.py [--models gpt2,bert,llama,t5] [--repeat 3]

Both sides are whole processes timed from outside, start to exit; each timing is the best of
--repeat runs. breaklint also pays for its worker process, the eager coverage run, the static
phase over the model's modeling files and, when Dynamo breaks, the knob reruns.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

BARE = """
import torch
import transformers
from breaklint.hf import build

probe = build({model!r}, "eval")
torch.compile(probe.module, backend="eager")(*probe.args, **probe.kwargs)
"""


def _timed(command: Sequence[str], folder: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    return time.perf_counter() - started, done


def _best(command: Sequence[str], folder: str, repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        elapsed, done = _timed(command, folder)
        if done.returncode not in (0, 1):
            sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
        timings.append(elapsed)
    return min(timings)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="gpt2,bert,llama,t5")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print(f"{'model':<8} {'bare compile':>12} {'breaklint --hf':>14} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for model in options.models.split(","):
            bare = [sys.executable, "-c", BARE.format(model=model)]
            linted = [sys.executable, "-m", "breaklint", "--hf", model, "--no-cache", "-q"]
            linted += ["--jobs", "1", "--output-format", "json"]
            _, check = _timed(linted, folder)
            statuses = [probe["status"] for probe in json.loads(check.stdout)["probes"]]
            if statuses != ["ok"]:
                sys.exit(f"breaklint --hf {model} did not run the model: {statuses}")
            bare_s = _best(bare, folder, options.repeat)
            linted_s = _best(linted, folder, options.repeat)
            print(f"{model:<8} {bare_s:>11.2f}s {linted_s:>13.2f}s {linted_s / bare_s:>5.2f}x")


if __name__ == "__main__":
    main()
