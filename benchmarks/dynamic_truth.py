"""Run breaklint's command line while keeping, or reusing, what its dynamic phase observed.

The truth `library_accuracy.py` scores against (where Dynamo broke, which lines the probes
executed) does not depend on the static rules, and collecting it takes most of a run. This
driver runs `python -m breaklint ARGS` unchanged, except for the dynamic phase:

    python benchmarks/dynamic_truth.py --record FILE -- ARGS...
        runs the probes as usual and pickles every probe's result (breaks, executed lines,
        watched spans) to FILE;
    python benchmarks/dynamic_truth.py --replay FILE -- ARGS...
        runs no probe (and imports no torch): it joins the static findings of this run with
        the results kept in FILE, so a new checkout's static findings are scored in seconds.

A replayed join is the recorded one for every statement the recording run flagged; a statement
only the new run flags counts as executed when a probe ran its line (the recording could not
watch its exact span). The pickle holds breaklint's own dataclasses: replay it with a checkout
whose `breaklint.dynamic.model` still has the same fields.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import breaklint.dynamic.phase as phase
from breaklint.cli import main as breaklint_main


def _recording(file: Path) -> Any:
    run_dynamic = phase.run_dynamic

    def recorded(*args: Any, **kwargs: Any) -> phase.DynamicResult:
        result = run_dynamic(*args, **kwargs)
        file.write_bytes(pickle.dumps(result.probes))
        return result

    return recorded


def _replaying(file: Path) -> Any:
    results = pickle.loads(file.read_bytes())  # a file this driver wrote

    def replayed(findings: Sequence[Any], *args: Any, allowed: Any, **kwargs: Any) -> Any:
        joined = phase._apply_suppressions(phase.join(findings, results, allowed))
        return phase.DynamicResult(joined, results)

    return replayed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", type=Path, help="pickle the probes' results here")
    mode.add_argument("--replay", type=Path, help="join with the probes' results kept here")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="-- then breaklint's")
    options = parser.parse_args(argv)
    arguments = options.arguments[1:] if options.arguments[:1] == ["--"] else options.arguments
    if options.record:
        phase.run_dynamic = _recording(options.record)
    else:
        phase.run_dynamic = _replaying(options.replay)
    return breaklint_main(arguments)


if __name__ == "__main__":
    sys.exit(main())
