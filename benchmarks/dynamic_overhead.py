"""The dynamic phase's own overhead: `breaklint --probes` on N probes against the same probes
run as bare `torch.compile(backend="eager")` calls in one process (after `torch._dynamo.reset()`).

    .venv/bin/python benchmarks/dynamic_overhead.py [--copies N] [--jobs J]

Both sides pay for `import torch`; breaklint also pays for its workers, coverage, the knob
reruns, the variant calls and the static phase. Both run in the same round, so under the same
load; each side's CPU time (user + sys of the process and every process it waited for) is
printed beside its wall time, since wall time on a shared machine moves with the load.
"""

from __future__ import annotations

import argparse
import ast
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"

BARE = """
import sys
sys.path.insert(0, {folder!r})
import torch
import torch._dynamo
import probes
for copy in range({copies}):
    for name in sorted(n for n in dir(probes) if n.startswith("probe_")):
        target, args, *rest = getattr(probes, name)()
        torch._dynamo.reset()
        torch.compile(target, backend="eager")(*args, **(rest[0] if rest else {{}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--copies", type=int, default=3, help="copies of the corpus probes")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "breaklint", nargs="*", help="more breaklint options, after --: -- --all-variants"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for source in CORPUS.glob("*.py"):
            shutil.copy(source, folder)
        probes = (CORPUS / "probes.py").read_text(encoding="utf-8")
        for copy in range(options.copies):
            Path(folder, f"probes_{copy}.py").write_text(probes, encoding="utf-8")
        per_copy = sum(
            isinstance(node, ast.FunctionDef) and node.name.startswith("probe_")
            for node in ast.parse(probes).body
        )
        count = per_copy * options.copies
        started, cpu = time.perf_counter(), _children_cpu()
        probe_options = [f"--probes=probes_{c}.py" for c in range(options.copies)]
        linted = [p.name for p in CORPUS.glob("*.py") if p.name != "probes.py"]
        command = [sys.executable, "-m", "breaklint", *linted, "-q", "--output-format", "json"]
        command += ["--no-cache", "--jobs", str(options.jobs), *probe_options, *options.breaklint]
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
        breaklint_s, breaklint_cpu = time.perf_counter() - started, _children_cpu() - cpu
        statuses = [probe["status"] for probe in json.loads(done.stdout)["probes"]]
        if len(statuses) != count or set(statuses) != {"ok"}:
            sys.exit(f"breaklint did not run every probe to the end: {statuses}")
        script = BARE.format(folder=folder, copies=options.copies)
        started, cpu = time.perf_counter(), _children_cpu()
        bare = subprocess.run(
            [sys.executable, "-c", script], cwd=folder, capture_output=True, text=True
        )
        if bare.returncode != 0:
            sys.exit(f"the bare run failed:\n{bare.stderr[-2000:]}")
        bare_s, bare_cpu = time.perf_counter() - started, _children_cpu() - cpu
    print(f"{count} probes, --jobs {options.jobs}{' '.join(['', *options.breaklint])}")
    print(f"breaklint --probes: {breaklint_s:.2f} s wall, {breaklint_cpu:.2f} s CPU")
    print(
        f"bare torch.compile(backend='eager') in one process: {bare_s:.2f} s wall, "
        f"{bare_cpu:.2f} s CPU"
    )
    print(f"ratio: {breaklint_s / bare_s:.2f}x wall, {breaklint_cpu / bare_cpu:.2f}x CPU")


def _children_cpu() -> float:
    """User + sys seconds of the child processes waited for so far (and of theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
