"""`--fix`: fix, lint again, and fix what the fixes made possible; with probes, check the
fixes on them and give a file its old text back when a probe disagrees."""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from breaklint.config import Selection
from breaklint.console import error, warnings
from breaklint.pipeline import LintRequest, Outcome, dynamic, static, with_dynamic

if TYPE_CHECKING:
    from breaklint.dynamic.model import ProbeResult
    from breaklint.fixer import FileFix

# As in ruff: a fix can make another one possible (an inner `if` rewritten leaves its outer
# `if` assigning values); `--fix` lints and fixes again until nothing changes, this many times.
MAX_FIX_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class FixRun:
    """What `--fix` did over all its rounds."""

    outcome: Outcome  # the static phase after the last round
    files: dict[str, FileFix]  # by path: text before the first round, after the last
    problems: dict[str, str]  # files that could not be fixed or written, and why


def _fix_rounds(
    request: LintRequest, files: list[str], selection: Selection, outcome: Outcome
) -> FixRun:
    from breaklint.discovery import linted_trees
    from breaklint.fixer import FileFix, plan_fixes, write_fixes

    run = FixRun(outcome, {}, {})
    trees = linted_trees(request.paths)
    notes: dict[str, str] = {}
    for _ in range(MAX_FIX_ROUNDS):
        plan = plan_fixes(
            run.outcome.findings,
            unsafe=request.unsafe_fixes,
            linted=run.outcome.digests,
            trees=trees,
        )
        notes |= plan.notes
        plan.files = [file for file in plan.files if file.path not in run.problems]
        problems = plan.problems | write_fixes(plan, trees)
        run.problems.update(problems)
        written = [file for file in plan.files if file.path not in problems]
        if not written:
            break
        for file in written:
            first = run.files.get(file.path, file)
            applied = first.applied + file.applied if first is not file else file.applied
            run.files[file.path] = FileFix(
                file.path, file.encoding, first.original, file.fixed, applied
            )
        run = replace(run, outcome=static(request, files, selection))
    warnings(f"{path}: {note}" for path, note in notes.items())
    for path, problem in run.problems.items():
        error(f"{path}: {problem}")
    return run


def fixed(request: LintRequest, files: list[str], selection: Selection) -> Outcome:
    """The static phase, with `--fix`: the fixes written, then what is left at its new
    positions."""
    outcome = static(request, files, selection)
    if not request.fix:
        return outcome
    run = _fix_rounds(request, files, selection, outcome)
    return replace(
        run.outcome,
        fixed=Counter(f.code for file in run.files.values() for f in file.applied),
        fix_failed=bool(run.problems),
    )


def fixed_and_verified(
    request: LintRequest, files: list[str], selection: Selection, probe_paths: list[str]
) -> Outcome:
    """`--fix` with probes checks its own work: every probe runs before and after the fixes
    (same seed), and a file keeps its fixes only when each probe that ran its code before
    still runs, gives equal eager outputs and breaks no more often; otherwise the file gets
    its old text back, byte for byte. Then the static and dynamic phases see the result."""
    from breaklint.dynamic.model import OutputsPlan

    outcome = static(request, files, selection)
    if not any(f.fix is not None and f.fix.applies(request.unsafe_fixes) for f in outcome.findings):
        return with_dynamic(request, selection, files, outcome, probe_paths)
    with tempfile.TemporaryDirectory(prefix="breaklint-outputs-") as folder:
        before = dynamic(
            request, selection, files, outcome.findings, probe_paths, OutputsPlan(folder, False)
        )
        run = _fix_rounds(request, files, selection, outcome)
        after = dynamic(
            request, selection, files, run.outcome.findings, probe_paths, OutputsPlan(folder, True)
        )
    written = list(run.files.values())
    rejected = _keep_verified(written, before.probes, after.probes, request.quiet)
    for path, why in rejected.why.items():
        error(f"{path}: {why}")
    kept = [file for file in written if file.path not in rejected.why]
    if rejected.undone:  # files have their old text again: what is reported is what is on disk
        verified = with_dynamic(
            request, selection, files, static(request, files, selection), probe_paths
        )
    else:
        verified = replace(run.outcome, findings=after.findings, probes=after.probes)
    return replace(
        verified,
        fixed=Counter(f.code for file in kept for f in file.applied),
        fix_failed=bool(run.problems) or len(rejected.undone) < len(rejected.why),
    )


@dataclass(slots=True)
class _Rejected:
    """Fixed files a probe disagreed about, by path: why, and whether the old text is back."""

    why: dict[str, str] = field(default_factory=dict)
    undone: set[str] = field(default_factory=set)


def _keep_verified(
    written: list[FileFix], before: list[ProbeResult], after: list[ProbeResult], quiet: bool
) -> _Rejected:
    """Restore each fixed file that a probe disagrees about. `before` and `after` are the
    results of the same probes, in the same order."""
    from breaklint.fixer import ChangedOnDisk, replace_file

    if not quiet:
        sys.stderr.write("Fixes checked on the probes (before -> after):\n")
        for old, new in zip(before, after, strict=True):
            sys.stderr.write(f"  {_probe_change(old, new)}\n")
    rejected = _Rejected()
    for file in written:
        real = os.path.realpath(file.path)
        disagreements = [
            f"{old.probe.key} {why}"
            for old, new in zip(before, after, strict=True)
            if any(path == real for path, _ in old.executed) and (why := _disagreement(old, new))
        ]
        if not disagreements:
            continue
        fixes = ", ".join(f"{f.code} at line {f.line}" for f in file.applied)
        try:
            replace_file(file.path, file.original.encode(file.encoding), expected=file.fixed)
        except (OSError, ChangedOnDisk) as problem:
            why = f"fixes ({fixes}) failed a probe but cannot be undone ({problem})"
            rejected.why[file.path] = why
            continue
        rejected.undone.add(file.path)
        rejected.why[file.path] = (
            f"fixes ({fixes}) undone, the file is as it was: {'; '.join(disagreements)}"
        )
    return rejected


def _disagreement(old: ProbeResult, new: ProbeResult) -> str | None:
    """Why a probe that ran before the fixes rejects them, if it does."""
    if old.status != "ok":
        return None  # it proved nothing before the fixes
    if new.status != "ok":
        return f"now fails ({new.status}: {new.error})"
    if new.outputs_differ is not None:
        return f"gives other eager outputs ({new.outputs_differ})"
    if new.break_count > old.break_count:
        return f"breaks more often ({old.break_count} -> {new.break_count})"
    return None


def _probe_change(old: ProbeResult, new: ProbeResult) -> str:
    if old.status != "ok" or new.status != "ok":
        return f"{old.probe.key}: {old.status} -> {new.status}"
    outputs = "equal outputs" if new.outputs_differ is None else "outputs differ"
    return (
        f"{old.probe.key}: graphs {old.graphs} -> {new.graphs}, "
        f"breaks {old.break_count} -> {new.break_count}, {outputs}"
    )
