"""The static phase's speed against the floor of one `ast.parse` per file, side by side.

    .venv/bin/python benchmarks/static_speed.py [--corpus transformers|torch-nn] [--jobs J]
                                                [--repeat N]

For each corpus (default: every `transformers/models/**/modeling_*.py` and `torch/nn`, as
installed) it prints: the floor (read + `ast.parse` of every file, one process), libcst's parse
of every file alone (once, when libcst is installed: what a libcst-based linter starts from),
breaklint cold (an empty cache folder), warm (cache, nothing changed), `breaklint FILE` end to
end (process start to exit, as pre-commit runs it, without and with its cache entry), and the
peak memory of one more cold run summed over the whole process tree (polled from /proc). Two
ratios compare cold runs with each other: `--output-format json` (which carries each fix's
edits) against concise, and `--jobs J` against `--jobs 1`, each the best over rounds whose runs
follow each other, under the same load. Each timing is the best of N runs: the machines this
runs on are shared and noisy; the CPU seconds (user + system of the process tree) of each
floor, cold, JSON and `--jobs 1` run are printed beside their wall times. The findings of
cold, warm and `--jobs 1 --no-cache` runs must be identical, in the same order.

breaklint runs as installed, with bytecode caches: PYTHONDONTWRITEBYTECODE is dropped from its
environment, since compiling breaklint's own modules on every start is not what users pay.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TARGETS = {"cold": 2.0, "warm": 0.1}  # at most this many times the ast.parse floor
JSON_TARGET = 1.3  # JSON cold, at most this many times concise cold
JOBS_TARGET = 0.6  # cold with --jobs J (J > 1), at most this many times --jobs 1
SINGLE_FILE_TARGET_S = 0.2  # one changed file, end to end (issue 23)
PEAK_RSS_TARGET_MB = 500
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def corpus_files(name: str) -> list[str]:
    package = "transformers" if name == "transformers" else "torch"
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{package} is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    if name == "transformers":
        return sorted(str(p) for p in (root / "models").glob("**/modeling_*.py"))
    return sorted(str(p) for p in (root / "nn").glob("**/*.py"))


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def parse_all(files: list[str], parse) -> None:
    for path in files:
        parse(Path(path).read_text(encoding="utf-8"))


def _tree_rss_kb(root_pid: int) -> int:
    """RSS of a process and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rpartition(")")[2].split()
        except OSError:
            continue  # the process ended meanwhile
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)  # fields[1] is the parent pid
        rss[pid] = int(fields[21]) * PAGE_KB  # fields[21] is rss in pages
    total, pending = 0, [root_pid]
    while pending:
        pid = pending.pop()
        total += rss.get(pid, 0)
        pending.extend(children.get(pid, []))
    return total


def run_breaklint(
    args: list[str], cwd: str, *, memory: bool = False, cpu: list[float] | None = None
) -> tuple[float, str, int]:
    """(wall seconds, report, peak tree RSS in KB or 0) of one CLI run; `cpu` gets the user +
    system seconds of its process tree (its workers are its children, reaped before it exits).
    Polling /proc for memory takes CPU from the run, so timed runs do not poll."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "breaklint", "--isolated", "--exit-zero", "--quiet", *args]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True, env=environment)
    peak = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(process.pid))
            done.wait(0.02)

    poller = threading.Thread(target=poll)
    if memory:
        poller.start()
    out, _ = process.communicate()
    wall = time.perf_counter() - started
    done.set()
    if memory:
        poller.join()
    if process.returncode != 0:
        sys.exit(f"breaklint failed ({process.returncode}): {' '.join(command[:8])} ...")
    if cpu is not None:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, out, peak


def libcst_parse_time(files: list[str]) -> float | None:
    try:
        import libcst
    except ImportError:
        return None
    return timed(lambda: parse_all(files, libcst.parse_module))


def bench(name: str, jobs: int, repeat: int) -> bool:
    files = corpus_files(name)
    lines = sum(Path(p).read_bytes().count(b"\n") for p in files)
    print(f"\n## {name}: {len(files)} files, {lines} lines, --jobs {jobs}, best of {repeat}")
    libcst_parse = libcst_parse_time(files)
    concise = ["--output-format", "concise"]
    floors, colds, warms, jsons, serials, reports = [], [], [], [], [], []
    # CPU seconds (user + system, the process tree's) beside wall: on a shared machine wall
    # time counts the waits for a core.
    floor_cpus: list[float] = []
    cold_cpus: list[float] = []
    json_cpus: list[float] = []
    serial_cpus: list[float] = []
    for _ in range(repeat):  # interleaved, so that floor and runs see the same machine load
        started = time.process_time()
        floors.append(timed(lambda: parse_all(files, ast.parse)))
        floor_cpus.append(time.process_time() - started)
        with tempfile.TemporaryDirectory() as folder:
            cold_args = [*concise, "--jobs", str(jobs), *files]
            cold, cold_out, _ = run_breaklint(cold_args, folder, cpu=cold_cpus)
            warm, warm_out, _ = run_breaklint([*concise, "--jobs", str(jobs), *files], folder)
        with tempfile.TemporaryDirectory() as folder:
            json_format = ["--output-format", "json", "--jobs", str(jobs)]
            jsons.append(run_breaklint([*json_format, *files], folder, cpu=json_cpus)[0])
        with tempfile.TemporaryDirectory() as folder:
            serial_args = [*concise, "--jobs", "1", *files]
            serials.append(run_breaklint(serial_args, folder, cpu=serial_cpus)[0])
        colds.append(cold)
        warms.append(warm)
        reports += [cold_out, warm_out]
    with tempfile.TemporaryDirectory() as folder:  # one more cold run, for its memory
        _, _, peak_kb = run_breaklint([*concise, "--jobs", str(jobs), *files], folder, memory=True)
    with tempfile.TemporaryDirectory() as folder:
        reports.append(run_breaklint([*concise, "--jobs", "1", "--no-cache", *files], folder)[1])
        one = files[len(files) // 2]
        single_cold = min(run_breaklint(["--no-cache", one], folder)[0] for _ in range(repeat))
        single_warm = min(run_breaklint([one], folder)[0] for _ in range(repeat + 1))
    identical = all(report == reports[0] for report in reports)
    floor, cold, warm, peak_mb = min(floors), min(colds), min(warms), peak_kb / 1024
    rows = [
        ("ast.parse floor (1 process)", floor, None),
        ("libcst parse alone (1 process)", libcst_parse, None),
        ("breaklint cold", cold, cold <= TARGETS["cold"] * floor),
        ("breaklint warm", warm, warm <= TARGETS["warm"] * floor),
        ("breaklint FILE, no cache", single_cold, single_cold <= SINGLE_FILE_TARGET_S),
        ("breaklint FILE, cached", single_warm, single_warm <= SINGLE_FILE_TARGET_S),
    ]
    for label, seconds, met in rows:
        if seconds is None:
            print(f"{label:<32} (libcst is not installed)")
            continue
        verdict = "" if met is None else ("  target met" if met else "  TARGET MISSED")
        print(f"{label:<32} {seconds:8.2f} s  {seconds / floor:6.2f}x floor{verdict}")
    memory_met = peak_mb <= PEAK_RSS_TARGET_MB
    print(f"{'peak RSS, cold, process tree':<32} {peak_mb:8.0f} MB", end="")
    print("  target met" if memory_met else "  TARGET MISSED")
    json_ratio = min(j / c for j, c in zip(jsons, colds, strict=True))
    json_met = json_ratio <= JSON_TARGET
    print(f"{'JSON cold / concise cold':<32} {min(jsons):8.2f} s  {json_ratio:6.2f}x", end="")
    print("  target met" if json_met else "  TARGET MISSED")
    jobs_ratio = min(c / s for c, s in zip(colds, serials, strict=True))
    jobs_met = jobs < 2 or jobs_ratio <= JOBS_TARGET
    verdict = "" if jobs < 2 else "  target met" if jobs_met else "  TARGET MISSED"
    label = f"--jobs {jobs} cold / --jobs 1 cold"
    print(f"{label:<32} {min(serials):8.2f} s  {jobs_ratio:6.2f}x{verdict}")
    findings = len(reports[0].splitlines())
    print(f"findings: {findings}, identical cold/warm/--jobs 1: {'yes' if identical else 'NO'}")
    for label, walls, cpus in (
        ("floor runs:", floors, floor_cpus),
        ("cold runs: ", colds, cold_cpus),
        ("JSON runs: ", jsons, json_cpus),
        ("--jobs 1:  ", serials, serial_cpus),
    ):
        pairs = " ".join(f"{w:.2f} ({c:.2f})" for w, c in zip(walls, cpus, strict=True))
        print(f"{label} {pairs} s wall (CPU)")
    print(f"load average at the end: {' '.join(f'{n:.1f}' for n in os.getloadavg())}")
    targets_met = all(met is not False for *_, met in rows) and json_met and jobs_met
    return identical and targets_met and memory_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=("transformers", "torch-nn"), action="append")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (the best counts)")
    args = parser.parse_args()
    corpora = args.corpus or ("transformers", "torch-nn")
    results = [bench(name, args.jobs, args.repeat) for name in corpora]
    print("\nall targets met" if all(results) else "\nsome targets missed")


if __name__ == "__main__":
    main()
