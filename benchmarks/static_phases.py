"""Where a cold static run's CPU goes, phase by phase, without a profiler's distortion.

    .venv/bin/python benchmarks/static_phases.py [--corpus transformers|torch-nn]
                                                 [--output-format concise|json] [FILE ...]

Runs `breaklint --jobs 1 --no-cache` in this process over the corpus of
`benchmarks/static_speed.py` (or the files given) with a CPU clock (`time.process_time`) around
each phase's entry point, and prints each phase's own seconds (a phase called inside another is
counted once, in the inner one) and its share of the run. cProfile's per-call cost shrinks the
share of what runs in C (the parse: 6.7% of a cProfile run on transformers' modeling files,
16.5% here) against what makes many small Python calls (the walks); these are the shares the
cost model in `breaklint/engine.py` states. The findings are those of the CLI: the report goes
to /dev/null.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from static_speed import corpus_files

# (module, attribute, phase): each module's own name for the function, as it calls it.
PHASES = [
    ("breaklint.checker", "read_source", "read"),
    ("breaklint.checker", "parse_tree", "parse"),
    ("breaklint.checker", "_index", "index (compile-stage notes and the rare compile included)"),
    ("breaklint.checker", "code_words", "words"),
    ("breaklint.checker", "compile_scope", "scope, the file's own"),
    ("breaklint.checker", "annotate", "analysis, the file's own"),
    ("breaklint.checker", "_check_function", "rules: prefilter, walk, findings"),
    ("breaklint.checker", "walk", "rules: the walk"),
    ("breaklint.checker", "rules_for", "rules: the prefilter"),
    ("breaklint.checker", "collect_reports", "rules: finish and restate"),
    ("breaklint.checker", "breaking_calls", "call summaries, the file's own"),
    ("breaklint.checker", "Suppressions", "suppressions"),
    ("breaklint.checker", "check_file", "freeing each file's tree and results"),
    ("breaklint.checker", "_check_file", "check_file rest"),
    ("breaklint.checker", "recheck_file", "rechecks (parse, walk) in the project pass"),
    ("breaklint.engine", "compile_scope", "project: scope"),
    ("breaklint.engine", "annotate", "project: analysis"),
    ("breaklint.engine", "breaking_calls", "project: call summaries"),
    ("breaklint.engine", "lint_paths", "engine rest (jobs, linking, results)"),
    ("breaklint.commands", "_report", "report (edits for JSON included)"),
]
# With --cache: what storing each file's result costs a cold run (its JSON form, its write).
CACHE_PHASES = [
    ("breaklint.jobs", "file_result_to_json", "cache: each file's result as JSON"),
    ("breaklint.engine", "findings_to_json", "cache: the run's findings as JSON"),
    ("breaklint.cache.ResultCache", "store", "cache: json.dumps and the write"),
]


class Clock:
    def __init__(self) -> None:
        self.own: dict[str, float] = {}
        self.stack: list[list[float]] = []  # [started, inner seconds]

    def wrap(self, phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            frame = [time.process_time(), 0.0]
            self.stack.append(frame)
            try:
                return function(*args, **kwargs)
            finally:
                self.stack.pop()
                spent = time.process_time() - frame[0]
                self.own[phase] = self.own.get(phase, 0.0) + spent - frame[1]
                if self.stack:
                    self.stack[-1][1] += spent

        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="transformers", choices=["transformers", "torch-nn"])
    parser.add_argument("--output-format", default="concise", choices=["concise", "json"])
    parser.add_argument(
        "--cache", action="store_true", help="a cold run with an empty cache, as static_speed's"
    )
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or corpus_files(args.corpus)
    import importlib

    clock = Clock()
    for module_name, attribute, phase in [*PHASES, *(CACHE_PHASES if args.cache else [])]:
        owner: Any
        if module_name.endswith(".ResultCache"):
            owner = importlib.import_module(module_name.rpartition(".")[0]).ResultCache
        else:
            owner = importlib.import_module(module_name)
        setattr(owner, attribute, clock.wrap(phase, getattr(owner, attribute)))
    from breaklint.cli import main as breaklint_main

    argv = ["--isolated", "--exit-zero", "--quiet", "--jobs", "1"]
    argv += [*([] if args.cache else ["--no-cache"]), "--output-format", args.output_format]
    files = [os.path.abspath(path) for path in files]
    started = time.process_time()
    with (
        tempfile.TemporaryDirectory() as folder,
        contextlib.chdir(folder),
        open(os.devnull, "w") as null,
        contextlib.redirect_stdout(null),
        contextlib.suppress(SystemExit),
    ):
        breaklint_main([*argv, *files])
    total = time.process_time() - started
    rest = total - sum(clock.own.values())
    options = "--jobs 1, an empty cache" if args.cache else "--jobs 1 --no-cache"
    print(f"{len(files)} files, {total:.2f} s of CPU ({options})")
    rows = sorted(clock.own.items(), key=lambda item: -item[1])
    for phase, seconds in [*rows, ("imports, CLI, discovery", rest)]:
        print(f"{seconds:7.2f} s  {100 * seconds / total:5.1f}%  {phase}")


if __name__ == "__main__":
    main()
