"""`--fix`: fix, lint again, and fix what the fixes made possible; with probes, check the
fixes on them, and where a probe disagrees keep only the fixes of the file that verify."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from breaklint.config import Selection
from breaklint.console import error, warnings
from breaklint.pipeline import LintRequest, Outcome, dynamic, static, with_dynamic

if TYPE_CHECKING:
    from breaklint.dynamic.model import ProbeResult
    from breaklint.findings import Finding
    from breaklint.fixer import FileFix

# As in ruff: a fix can make another one possible (an inner `if` rewritten leaves its outer
# `if` assigning values); `--fix` lints and fixes again until nothing changes, this many times.
MAX_FIX_ROUNDS = 10
# Where a probe rejects a file's fixes, parts of them are tried again (bisecting each file's
# first-round fixes, all rejected files at once) in at most this many more runs of the probes.
MAX_BISECT_RUNS = 4


@dataclass(frozen=True, slots=True)
class FixRun:
    """What `--fix` did over all its rounds."""

    outcome: Outcome  # the static phase after the last round
    files: dict[str, FileFix]  # by path: text before the first round, after the last
    problems: dict[str, str]  # files that could not be fixed or written, and why
    first: dict[str, FileFix]  # by path: the first round alone, its fixes placed on the text


def _fix_rounds(
    request: LintRequest, files: list[str], selection: Selection, outcome: Outcome
) -> FixRun:
    from breaklint.discovery import linted_trees
    from breaklint.fixer import FileFix, plan_fixes, write_fixes

    run = FixRun(outcome, {}, {}, {})
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
            run.first.setdefault(file.path, file)
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
    still runs, gives equal eager outputs and breaks no more often. A file a probe disagrees
    about keeps the part of its fixes that passes the same check (`_bisect`), or gets its old
    text back, byte for byte. Then the static and dynamic phases see the result."""
    import tempfile  # here, as the dynamic phase: a run without probes never needs it

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
        if not request.quiet:
            sys.stderr.write("Fixes checked on the probes (before -> after):\n")
            for old, new in zip(before.probes, after.probes, strict=True):
                sys.stderr.write(f"  {_probe_change(old, new)}\n")
        written = list(run.files.values())
        rejected = {
            file.path: found
            for file in written
            if (found := _disagreements(file.path, before.probes, after.probes))
        }

        def check() -> list[ProbeResult]:
            findings = run.outcome.findings
            return dynamic(
                request, selection, files, findings, probe_paths, OutputsPlan(folder, True)
            ).probes

        parts = {path: _Part(run.first[path], run.files[path].fixed) for path in rejected}
        # A file with one fix over all rounds gets its old text back without another run.
        several = [part for path, part in parts.items() if len(run.files[path].applied) > 1]
        _bisect(several, before.probes, check)
    results = [_settle(run.files[path], parts[path], why) for path, why in rejected.items()]
    for path, result in zip(rejected, results, strict=True):
        error(f"{path}: {result.message}")
    kept = [file.applied for file in written if file.path not in rejected]
    kept += [result.kept for result in results]
    if rejected:  # files changed again: what is reported is what is on disk
        verified = with_dynamic(
            request, selection, files, static(request, files, selection), probe_paths
        )
    else:
        verified = replace(run.outcome, findings=after.findings, probes=after.probes)
    return replace(
        verified,
        fixed=Counter(f.code for applied in kept for f in applied),
        fix_failed=bool(run.problems) or any(not result.settled for result in results),
    )


def _disagreements(path: str, before: list[ProbeResult], after: list[ProbeResult]) -> list[str]:
    """Why each probe that ran the file's code before the fixes rejects them. `before` and
    `after` are the results of the same probes, in the same order."""
    real = os.path.realpath(path)
    return [
        f"{old.probe.key} {why}"
        for old, new in zip(before, after, strict=True)
        if any(executed == real for executed, _ in old.executed)
        and (why := _disagreement(old, new))
    ]


@dataclass(slots=True)
class _Part:
    """A file the probes rejected, while its fixes are bisected: the first round's fixes that
    verified (`kept`), the groups of them still to try, and the text the file holds now."""

    file: FileFix  # the first round: original text, its text after that round, its fixes
    text: str
    kept: list[Finding] = field(default_factory=list)
    groups: list[list[Finding]] = field(default_factory=list)
    trying: list[Finding] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.groups = _halves(self.file.applied)


def _halves(fixes: list[Finding]) -> list[list[Finding]]:
    """The fixes in two groups to try one after the other; one group of a single fix."""
    middle = (len(fixes) + 1) // 2
    return [half for half in (fixes[:middle], fixes[middle:]) if half]


def _bisect(
    parts: list[_Part], before: list[ProbeResult], check: Callable[[], list[ProbeResult]]
) -> None:
    """Find the first-round fixes of each rejected file that verify (`_Part.kept`): each file
    is rewritten from its original text with one group of its fixes more at a time (a half,
    the other half, a rejected group's halves), all files at once, and keeps the group when
    no probe that ran the file disagrees; at most MAX_BISECT_RUNS runs of the probes
    (`check`). Each file is left with the text it was last tried with (`_Part.text`)."""
    from breaklint.fixer import FixError, fixed_text

    for _ in range(MAX_BISECT_RUNS):
        tried = []
        for part in parts:
            while part.groups and not part.trying:
                group = part.groups.pop(0)
                candidate = sorted(part.kept + group, key=lambda f: (f.line, f.column))
                try:
                    text = fixed_text(part.file.original, candidate)
                except FixError:  # these fixes need the ones left out: try fewer
                    part.groups[:0] = _halves(group) if len(group) > 1 else []
                    continue
                if _write(part, text):
                    part.trying = group
                    tried.append(part)
        if not tried:
            break
        after = check()
        for part in tried:
            if not _disagreements(part.file.path, before, after):
                part.kept += part.trying
            elif len(part.trying) > 1:
                part.groups[:0] = _halves(part.trying)
            part.trying = []


def _write(part: _Part, text: str) -> bool:
    """Write `text` over the part's file if it still holds the text breaklint wrote last."""
    from breaklint.fixer import ChangedOnDisk, replace_file

    try:
        replace_file(part.file.path, text.encode(part.file.encoding), expected=part.text)
    except (OSError, ChangedOnDisk):
        return False
    part.text = text
    return True


def _named(fixes: list[Finding]) -> str:
    return ", ".join(f"{f.code} at line {f.line}" for f in fixes)


@dataclass(frozen=True, slots=True)
class _Settled:
    kept: list[Finding]  # the fixes the file holds now
    message: str
    settled: bool  # False: the file could not be given the text that verified


def _settle(file: FileFix, part: _Part, disagreements: list[str]) -> _Settled:
    """Write the file (`file`: all rounds) with only the fixes that verified (`part.kept`,
    of the first round), or its original text, over the text fixing or bisecting left."""
    from breaklint.fixer import ChangedOnDisk, FixError, fixed_text, replace_file

    names = _named(file.applied)
    why = "; ".join(disagreements)
    try:
        text = fixed_text(file.original, part.kept) if part.kept else file.original
        if text != part.text:
            replace_file(file.path, text.encode(file.encoding), expected=part.text)
    except (OSError, ChangedOnDisk, FixError) as problem:
        message = f"fixes ({names}) failed a probe but cannot be undone ({problem})"
        return _Settled([], message, settled=False)
    if not part.kept:
        return _Settled([], f"fixes ({names}) undone, the file is as it was: {why}", settled=True)
    undone = _named([f for f in file.applied if f not in part.kept])
    kept = _named(part.kept)
    message = f"fixes ({undone}) undone, those that verified ({kept}) kept: {why}"
    return _Settled(part.kept, message, settled=True)


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
