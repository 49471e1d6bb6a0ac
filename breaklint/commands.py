"""One pipeline per command: `lint` (settings -> discovery -> static phase -> fixes -> dynamic
phase -> report -> exit code), `list_rules` and `show_rule`. The command line only parses."""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from breaklint.codes import code_declared_in, known_codes
from breaklint.config import ConfigError, Selection, Settings
from breaklint.findings import Finding, Status

if TYPE_CHECKING:
    from breaklint.dynamic.model import OutputsPlan, ProbeResult
    from breaklint.dynamic.phase import DynamicResult
    from breaklint.fixer import FileFix

from breaklint.report import CARRIES_EDITS, WRITERS, OutputOptions, Summary, summary_line

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True, slots=True)
class LintRequest:
    """What the user asked of a lint run, settings resolved."""

    paths: list[str]
    settings: Settings
    started: float  # time.perf_counter() when the run began: the summary counts from it
    jobs: int
    use_cache: bool
    fix: bool
    unsafe_fixes: bool
    diff: bool
    probes: tuple[str, ...]  # probe files or folders given on the command line
    dynamic: bool  # run the probes the settings list when none are given
    probe_timeout: float
    device: str
    variants: bool  # derive variants of each probe's call to count recompilations
    output_format: str
    output_file: Path | None
    output: OutputOptions
    show_not_reproduced: bool
    exit_zero: bool
    quiet: bool


def error(message: str) -> None:
    sys.stderr.write(f"breaklint: error: {message}\n")


@dataclass(slots=True)
class _Outcome:
    """What the phases produced, for the report and the exit code."""

    findings: list[Finding]
    files_checked: int
    files_skipped: int
    probes: list[Any] | None = None  # breaklint.dynamic.model.ProbeResult, if probes ran
    fixed: Counter[str] = field(default_factory=Counter)  # findings fixed, by rule code
    fix_failed: bool = False


def lint(request: LintRequest) -> int:
    """Lint, fix, probe and report; the exit code."""
    from breaklint.discovery import discover

    settings = request.settings
    try:
        found = discover(request.paths, settings)
        selection = settings.selection(known_codes())
        if request.diff:
            findings = _static(request, found.files, selection).findings
            return _show_diff(findings, request.unsafe_fixes)
        probe_paths = list(request.probes) or (list(settings.probes) if request.dynamic else [])
        if request.dynamic and not probe_paths:
            raise ConfigError(
                "--dynamic needs probes: pass --probes or set [tool.breaklint] probes"
            )
        if request.fix and probe_paths:
            outcome = _fixed_and_verified(request, found.files, selection, probe_paths)
        else:
            outcome = _fixed(request, found.files, selection)
            if probe_paths:
                _run_dynamic(request, selection, found.files, outcome, probe_paths)
    except ConfigError as problem:
        error(str(problem))
        return EXIT_ERROR
    for missing in found.missing:
        error(f"path '{missing}' does not exist")
    for empty in found.empty:
        sys.stderr.write(f"breaklint: warning: no Python files found under '{empty}'\n")
    return _report(request, outcome, failed=bool(found.missing) or outcome.fix_failed)


def _static(request: LintRequest, files: list[str], selection: Selection) -> _Outcome:
    from breaklint.engine import lint_paths

    result = lint_paths(files, request.settings, request.jobs, request.use_cache, selection)
    return _Outcome(result.findings, result.files_checked, result.files_skipped)


def _fixed(request: LintRequest, files: list[str], selection: Selection) -> _Outcome:
    """The static phase, with `--fix`: the fixes written, then what is left at its new
    positions."""
    outcome = _static(request, files, selection)
    if not request.fix:
        return outcome
    fixed, fix_failed = _apply_fixes(outcome.findings, request.unsafe_fixes)
    if fixed:
        outcome = _static(request, files, selection)
    outcome.fixed, outcome.fix_failed = fixed, fix_failed
    return outcome


def _fixed_and_verified(
    request: LintRequest, files: list[str], selection: Selection, probe_paths: list[str]
) -> _Outcome:
    """`--fix` with probes checks its own work: every probe runs before and after the fixes
    (same seed), and a file keeps its fixes only when each probe that ran its code before
    still runs, gives equal eager outputs and breaks no more often; otherwise the file gets
    its old text back, byte for byte. Then the static and dynamic phases see the result."""
    from breaklint.dynamic.model import OutputsPlan
    from breaklint.fixer import plan_fixes, write_fixes

    outcome = _static(request, files, selection)
    plan = plan_fixes(outcome.findings, unsafe=request.unsafe_fixes)
    if not plan.files:
        for path, problem in plan.problems.items():
            error(f"{path}: {problem}")
        outcome.fix_failed = bool(plan.problems)
        _run_dynamic(request, selection, files, outcome, probe_paths)
        return outcome
    with tempfile.TemporaryDirectory(prefix="breaklint-outputs-") as folder:
        before = _dynamic(
            request, selection, files, outcome.findings, probe_paths, OutputsPlan(folder, False)
        )
        problems = plan.problems | write_fixes(plan)
        fixed = _static(request, files, selection)
        after = _dynamic(
            request, selection, files, fixed.findings, probe_paths, OutputsPlan(folder, True)
        )
    written = [file for file in plan.files if file.path not in problems]
    problems |= _keep_verified(written, before.probes, after.probes, request.quiet)
    for path, problem in problems.items():
        error(f"{path}: {problem}")
    kept = [file for file in written if file.path not in problems]
    if len(kept) == len(written):
        fixed.findings, fixed.probes = after.findings, after.probes
    else:  # some files have their old text again: what is reported is what is on disk
        fixed = _static(request, files, selection)
        _run_dynamic(request, selection, files, fixed, probe_paths)
    fixed.fixed = Counter(f.code for file in kept for f in file.applied)
    fixed.fix_failed = any(path not in {f.path for f in written} for path in problems)
    return fixed


def _keep_verified(
    written: list[FileFix], before: list[ProbeResult], after: list[ProbeResult], quiet: bool
) -> dict[str, str]:
    """Restore each fixed file that a probe disagrees about; why, by path. `before` and
    `after` are the results of the same probes, in the same order."""
    from breaklint.fixer import ChangedOnDisk, replace_file

    if not quiet:
        sys.stderr.write("Fixes checked on the probes (before -> after):\n")
        for old, new in zip(before, after, strict=True):
            sys.stderr.write(f"  {_probe_change(old, new)}\n")
    restored = {}
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
            restored[file.path] = f"fixes ({fixes}) failed a probe but cannot be undone ({problem})"
            continue
        restored[file.path] = (
            f"fixes ({fixes}) undone, the file is as it was: {'; '.join(disagreements)}"
        )
    return restored


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


def _report(request: LintRequest, outcome: _Outcome, failed: bool) -> int:
    """Write the report and the summary line; the exit code."""
    elapsed = time.perf_counter() - request.started
    summary = Summary(outcome.files_checked, elapsed, outcome.files_skipped, outcome.probes)
    # A finding that a probe ran through without a break stays in JSON, out of sight elsewhere,
    # and does not fail the run.
    shown = [
        f for f in outcome.findings
        if request.show_not_reproduced or f.status != Status.NOT_REPRODUCED
    ]  # fmt: skip
    reported = outcome.findings if request.output_format == "json" else shown
    try:
        _write_report(request, reported, summary)
    except OSError as problem:
        error(f"cannot write report to '{request.output_file}': {problem.strerror or problem}")
        return EXIT_ERROR
    if not request.quiet:
        sys.stderr.write(summary_line(shown, summary) + "\n")
        if outcome.fixed:
            sys.stderr.write(_fixed_summary(outcome.fixed))
        hint = _fix_hint(shown, request.unsafe_fixes)
        if hint:
            sys.stderr.write(hint + "\n")
    # A BL002 finding means breaklint failed on some code: CI must notice; so must a fix that
    # could not be written.
    internal_error = code_declared_in("internal_error")
    if failed or any(f.code == internal_error for f in shown):
        return EXIT_ERROR
    return EXIT_FINDINGS if shown and not request.exit_zero else EXIT_CLEAN


def _fixed_summary(fixed: Counter[str]) -> str:
    """How many findings `--fix` fixed, then how many of each rule, as ruff's statistics."""
    from breaklint.rule import all_rules

    count = sum(fixed.values())
    rules = all_rules()
    lines = [f"Fixed {count} finding{'s' if count != 1 else ''}."]
    lines += [f"  {n:>4}  {code} {rules[code].name}" for code, n in sorted(fixed.items())]
    return "\n".join(lines) + "\n"


def _write_report(request: LintRequest, findings: list[Finding], summary: Summary) -> None:
    writer = WRITERS[request.output_format]
    if request.output_format in CARRIES_EDITS and any(f.fix for f in findings):
        from breaklint.fixer import with_edits  # libcst, only when edits are shown

        findings = with_edits(findings)
    if request.output_file is None:
        writer(findings, sys.stdout, summary, request.output)
        return
    with open(request.output_file, "w", encoding="utf-8") as out:
        writer(findings, out, summary, request.output)


def _show_diff(findings: list[Finding], unsafe: bool) -> int:
    """`--diff`: the fixes as a unified diff on stdout; exit 1 when there is one."""
    from breaklint.fixer import plan_fixes, unified_diff

    plan = plan_fixes(findings, unsafe=unsafe)
    for path, problem in plan.problems.items():
        error(f"{path}: {problem}")
    for file in plan.files:
        sys.stdout.write(unified_diff(file))
    count = plan.applied
    sys.stderr.write(
        f"Would fix {count} finding{'s' if count != 1 else ''} in {len(plan.files)} "
        f"file{'s' if len(plan.files) != 1 else ''}.\n"
    )
    hidden = sum(1 for f in findings if f.fix is not None and not f.fix.applies(unsafe))
    if hidden:
        sys.stderr.write(
            f"{hidden} more unsafe fix{'es' if hidden != 1 else ''} with `--unsafe-fixes` "
            "(`--diff --unsafe-fixes` shows them).\n"
        )
    return EXIT_ERROR if plan.problems else EXIT_FINDINGS if plan.files else EXIT_CLEAN


def _apply_fixes(findings: list[Finding], unsafe: bool) -> tuple[Counter[str], bool]:
    """`--fix`: write the fixes; the findings fixed per rule, and whether a file failed."""
    from breaklint.fixer import plan_fixes, write_fixes

    plan = plan_fixes(findings, unsafe=unsafe)
    problems = plan.problems | write_fixes(plan)
    for path, problem in problems.items():
        error(f"{path}: {problem}")
    plan.files = [file for file in plan.files if file.path not in problems]
    return plan.by_rule(), bool(problems)


def _fix_hint(findings: list[Finding], unsafe: bool) -> str | None:
    """Point at the fixes the options given leave out."""
    fixes = [f.fix for f in findings if f.fix is not None]
    hidden = sum(1 for fix in fixes if not fix.applies(unsafe))
    available = len(fixes) - hidden
    lines = []
    if available:
        lines.append(f"{available} fix{'es' if available != 1 else ''} available with `--fix`.")
    if hidden:
        more = "more " if available else ""
        lines.append(
            f"{hidden} {more}unsafe fix{'es' if hidden != 1 else ''} available with "
            "`--fix --unsafe-fixes` (`--diff --unsafe-fixes` shows them; each rule's page says "
            "what they change)."
        )
    return "\n".join(lines) or None


def _run_dynamic(
    request: LintRequest,
    selection: Selection,
    files: list[str],
    outcome: _Outcome,
    probe_paths: list[str],
) -> None:
    """The dynamic phase, joined into `outcome`."""
    result = _dynamic(request, selection, files, outcome.findings, probe_paths)
    outcome.findings, outcome.probes = result.findings, result.probes


def _dynamic(
    request: LintRequest,
    selection: Selection,
    files: list[str],
    findings: list[Finding],
    probe_paths: list[str],
    outputs: OutputsPlan | None = None,
) -> DynamicResult:
    """The dynamic phase: imported only when probes are given (its workers import torch)."""
    from breaklint.dynamic.phase import run_dynamic
    from breaklint.dynamic.pool import DynamicError

    if request.probe_timeout <= 0:
        raise ConfigError("--probe-timeout must be positive")
    try:
        result = run_dynamic(
            findings,
            files,
            probe_paths,
            jobs=request.jobs,
            timeout_s=request.probe_timeout,
            device=request.device,
            variants=request.variants,
            allowed=selection.allows,
            progress=sys.stderr.isatty() and not request.quiet,
            outputs=outputs,
        )
    except DynamicError as problem:
        raise ConfigError(str(problem)) from None
    for warning in result.warnings:
        sys.stderr.write(f"breaklint: warning: {warning}\n")
    return result


def list_rules(out: IO[str]) -> int:
    """`breaklint rules`: one line per rule."""
    from breaklint.rule import all_rules

    for rule in all_rules().values():
        # Messages are templates filled in per finding: show their placeholders as "…".
        message = re.sub(r"\{\w+\}", "…", rule.message)
        out.write(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {message}\n")
    return EXIT_CLEAN


def show_rule(code: str, out: IO[str]) -> int:
    """`breaklint rule CODE`: the rule's page."""
    from breaklint.rule import all_rules, rule_page

    wanted = all_rules().get(code.upper())
    if wanted is None:
        error(f"unknown rule '{code}' (see 'breaklint rules')")
        return EXIT_ERROR
    out.write(rule_page(wanted))
    return EXIT_CLEAN
