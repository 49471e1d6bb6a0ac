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

    python benchmarks/dynamic_truth.py --replay FILE --relocate OLD NEW -- ARGS...
        the same, for a recording made with the packages under folder OLD (another
        environment with the same packages): its paths under OLD read as under NEW.

A replayed join is the recorded one for every statement the recording run flagged; a statement
only the new run flags counts as executed when a probe ran its line (the recording could not
watch its exact span). The pickle holds breaklint's own dataclasses: a field added to them
since the recording takes its default on replay (a field without one makes the replay fail).
"""

from __future__ import annotations

import argparse
import dataclasses
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


def _with_defaults(value: Any) -> Any:
    """`value` with every dataclass in it given the defaults of fields it was pickled without."""
    if isinstance(value, list | tuple):
        for item in value:
            _with_defaults(item)
    elif isinstance(value, dict):
        for item in value.values():
            _with_defaults(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if not hasattr(value, field.name):
                if field.default_factory is not dataclasses.MISSING:
                    default = field.default_factory()
                elif field.default is not dataclasses.MISSING:
                    default = field.default
                else:
                    raise SystemExit(f"the recording lacks {type(value).__name__}.{field.name}")
                object.__setattr__(value, field.name, default)
            _with_defaults(getattr(value, field.name))
    return value


def _relocated(value: Any, old: str, new: str) -> Any:
    """`value` with every path string under folder `old` moved under folder `new`."""
    if isinstance(value, str):
        return new + value[len(old) :] if value.startswith(old + "/") else value
    if isinstance(value, list | tuple | frozenset | set):
        return type(value)(_relocated(item, old, new) for item in value)
    if isinstance(value, dict):
        return {key: _relocated(item, old, new) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            moved = _relocated(getattr(value, field.name), old, new)
            object.__setattr__(value, field.name, moved)
    return value


def _replaying(file: Path, relocate: Sequence[str] | None) -> Any:
    results = _with_defaults(pickle.loads(file.read_bytes()))  # a file this driver wrote
    if relocate:
        results = _relocated(results, *relocate)

    def replayed(findings: Sequence[Any], *args: Any, allowed: Any, **kwargs: Any) -> Any:
        return phase.DynamicResult(phase.joined(findings, results, allowed), results)

    return replayed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", type=Path, help="pickle the probes' results here")
    mode.add_argument("--replay", type=Path, help="join with the probes' results kept here")
    parser.add_argument(
        "--relocate",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="with --replay: the recording's packages folder and this environment's",
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="-- then breaklint's")
    options = parser.parse_args(argv)
    arguments = options.arguments[1:] if options.arguments[:1] == ["--"] else options.arguments
    if options.record:
        phase.run_dynamic = _recording(options.record)
    else:
        phase.run_dynamic = _replaying(options.replay, options.relocate)
    return breaklint_main(arguments)


if __name__ == "__main__":
    sys.exit(main())
