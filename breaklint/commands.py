"""One pipeline per command: `lint` (settings -> discovery -> static phase -> fixes -> dynamic
phase -> report -> exit code), `list_rules` and `show_rule`. The command line only parses."""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from breaklint.codes import code_declared_in, known_codes
from breaklint.config import ConfigError, Selection, Settings
from breaklint.findings import Finding, Status
from breaklint.report import WRITERS, OutputOptions, Summary, summary_line

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
    probe_memory: int | None  # MB per probe worker; None: the default, 0: no limit
    device: str
    output_format: str
    output_file: Path | None
    output: OutputOptions
    show_not_reproduced: bool
    exit_zero: bool
    quiet: bool


def error(message: str) -> None:
    sys.stderr.write(f"breaklint: error: {message}\n")


DEBUG_VARIABLE = "BREAKLINT_DEBUG"


def report_crash(crash: Exception) -> None:
    """One line on stderr for an unexpected exception; its traceback goes to a log file, or to
    stderr too when BREAKLINT_DEBUG is set."""
    detail = traceback.format_exception(crash)
    summary = f"{type(crash).__name__}: {crash}".splitlines()[0]
    if os.environ.get(DEBUG_VARIABLE):
        sys.stderr.write("".join(detail))
        error(f"internal error: {summary}")
        return
    try:
        handle, log = tempfile.mkstemp(prefix="breaklint-crash-", suffix=".log")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(detail))
        where = f"traceback in {log}"
    except OSError:
        where = f"set {DEBUG_VARIABLE}=1 for the traceback"
    error(f"internal error: {summary} (a bug in breaklint; {where})")


@dataclass(slots=True)
class _Outcome:
    """What the phases produced, for the report and the exit code."""

    findings: list[Finding]
    files_checked: int
    files_skipped: int
    probes: list[Any] | None = None  # breaklint.dynamic.model.ProbeResult, if probes ran
    fixed: int = 0
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
        outcome = _fixed(request, found.files, selection)
        probe_paths = list(request.probes) or (list(settings.probes) if request.dynamic else [])
        if request.dynamic and not probe_paths:
            raise ConfigError(
                "--dynamic needs probes: pass --probes or set [tool.breaklint] probes"
            )
        if probe_paths:
            _run_dynamic(request, selection, found.files, outcome, probe_paths)
    except ConfigError as problem:
        error(str(problem))
        return EXIT_ERROR
    for missing in found.missing:
        error(f"path '{missing}' does not exist")
    for folder in found.unreadable:
        sys.stderr.write(
            f"breaklint: warning: cannot read folder '{folder.folder}': {folder.reason}\n"
        )
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
        fixed = outcome.fixed
        if fixed:
            sys.stderr.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
        hint = _fix_hint(shown, request.unsafe_fixes)
        if hint:
            sys.stderr.write(hint + "\n")
    # A BL002 finding means breaklint failed on some code: CI must notice; so must a fix that
    # could not be written.
    internal_error = code_declared_in("internal_error")
    if failed or any(f.code == internal_error for f in shown):
        return EXIT_ERROR
    return EXIT_FINDINGS if shown and not request.exit_zero else EXIT_CLEAN


def _write_report(request: LintRequest, findings: list[Finding], summary: Summary) -> None:
    writer = WRITERS[request.output_format]
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
    hint = _fix_hint(findings, unsafe)
    if hint and not count:
        sys.stderr.write(hint + "\n")
    return EXIT_ERROR if plan.problems else EXIT_FINDINGS if plan.files else EXIT_CLEAN


def _apply_fixes(findings: list[Finding], unsafe: bool) -> tuple[int, bool]:
    """`--fix`: write the fixes; the number of findings fixed, and whether a file failed."""
    from breaklint.fixer import plan_fixes, write_fixes

    plan = plan_fixes(findings, unsafe=unsafe)
    problems = plan.problems | write_fixes(plan)
    for path, problem in problems.items():
        error(f"{path}: {problem}")
    return sum(f.applied for f in plan.files if f.path not in problems), bool(problems)


def _fix_hint(findings: list[Finding], unsafe: bool) -> str | None:
    """Point at fixes that the options given leave out."""
    from breaklint.fixer import applicable

    hidden = sum(1 for f in findings if applicable(f, True) and not applicable(f, unsafe))
    available = sum(1 for f in findings if applicable(f, unsafe))
    if available:
        return f"{available} fix{'es' if available != 1 else ''} available with `--fix`."
    if hidden:
        return (
            f"{hidden} unsafe fix{'es' if hidden != 1 else ''} available with "
            "`--fix --unsafe-fixes` (see each rule's page for what it changes)."
        )
    return None


def _run_dynamic(
    request: LintRequest,
    selection: Selection,
    files: list[str],
    outcome: _Outcome,
    probe_paths: list[str],
) -> None:
    """The dynamic phase: imported only when probes are given (its workers import torch)."""
    from breaklint.dynamic.phase import run_dynamic
    from breaklint.dynamic.pool import DynamicError

    if request.probe_timeout <= 0:
        raise ConfigError("--probe-timeout must be positive")
    if request.probe_memory is not None and request.probe_memory < 0:
        raise ConfigError("--probe-memory must be a number of megabytes, or 0 for no limit")
    try:
        result = run_dynamic(
            outcome.findings,
            files,
            probe_paths,
            jobs=request.jobs,
            timeout_s=request.probe_timeout,
            memory_mb=request.probe_memory,
            device=request.device,
            allowed=selection.allows,
            progress=sys.stderr.isatty() and not request.quiet,
        )
    except DynamicError as problem:
        raise ConfigError(str(problem)) from None
    for warning in result.warnings:
        sys.stderr.write(f"breaklint: warning: {warning}\n")
    outcome.findings, outcome.probes = result.findings, result.probes


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
