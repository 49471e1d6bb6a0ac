"""The commands: `lint` (settings -> discovery -> static phase -> fixes -> dynamic phase ->
report -> exit code), `list_rules` and `show_rule`. The command line only parses; `graph` is in
`graph_command`."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import IO, TYPE_CHECKING

from breaklint.codes import INTERNAL_ERROR, known_codes
from breaklint.config import ConfigError, Selection
from breaklint.console import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    error,
    fix_hint,
    fixed_summary,
    warning,
    warnings,
)
from breaklint.findings import Finding, Status
from breaklint.fix_verify import fixed, fixed_and_verified
from breaklint.pipeline import LintRequest, Outcome, given_probes, static, with_dynamic
from breaklint.report import (
    CARRIES_EDITS,
    WRITERS,
    OutputOptions,
    ReportTarget,
    Summary,
    summary_line,
)

if TYPE_CHECKING:
    from breaklint.hf_models import HFRun


def lint(request: LintRequest) -> int:
    """Lint, fix, probe and report; the exit code."""
    from breaklint.discovery import discover

    settings = request.settings
    try:
        found = discover(request.paths, settings)
        selection = settings.selection(known_codes())
        if request.diff:
            linted = static(request, found.files, selection)
            warnings(linted.warnings)
            return _show_diff(linted, request)
        models = _hf_models(request)
        files = found.files + (models.files if models else [])
        probe_paths = given_probes(request)
        if request.dynamic and not probe_paths:
            raise ConfigError(
                "--dynamic needs probes: pass --probes or set [tool.breaklint] probes"
            )
        probe_paths += [models.probe_file] if models else []
        outcome = _phases(request, files, selection, probe_paths)
    except ConfigError as problem:
        error(str(problem))
        return EXIT_ERROR
    for missing in found.missing:
        error(f"path '{missing}' does not exist")
    for folder in found.unreadable:
        warning(f"cannot read folder '{folder.folder}': {folder.reason}")
    for special in found.special:
        warning(f"skipped '{special.path}': {special.reason}")
    for empty in found.empty:
        warning(f"no Python files found under '{empty}'")
    not_built = False
    if models:
        outcome, not_built = _report_models(request, models, outcome)
    failed = bool(found.missing) or outcome.fix_failed or not_built
    return _report(request, outcome, failed=failed)


def _phases(
    request: LintRequest, files: list[str], selection: Selection, probe_paths: list[str]
) -> Outcome:
    """The static phase, the fixes asked for, then the dynamic phase when there are probes."""
    if request.fix and probe_paths:
        return fixed_and_verified(request, files, selection, probe_paths)
    outcome = fixed(request, files, selection)
    if probe_paths:
        return with_dynamic(request, selection, files, outcome, probe_paths)
    return outcome


def _hf_models(request: LintRequest) -> HFRun | None:
    """`--hf`: the models, their probe file and their modeling files; None without it."""
    if request.hf is None:
        return None
    from breaklint.hf_models import HFError, prepared

    try:
        return prepared(request.hf)
    except HFError as problem:
        raise ConfigError(str(problem)) from None


def _report_models(request: LintRequest, models: HFRun, outcome: Outcome) -> tuple[Outcome, bool]:
    """The model table on stderr, and an error for each model that could not be built (in
    the zoo, `--hf all`, a row says so instead). The outcome with the models' probes named
    by their models, and whether the run failed."""
    from breaklint.hf_models import write_table

    models.close()
    results = outcome.probes or []
    failures = models.build_failures(results)
    # A model that cannot be built is named here, not as a failed probe in a temporary file.
    built = models.built_findings(results, outcome.findings)
    if not request.quiet:
        write_table(models.rows(results, built), sys.stderr)
    probes, findings = models.relabeled(results, built)
    shard = None if outcome.shard is None else {**outcome.shard, "hf": models.to_json()}
    outcome = replace(outcome, probes=probes, findings=findings, shard=shard)
    if models.zoo:
        return outcome, False
    for model, reason in failures:
        error(f"cannot build --hf {model.spec} ({models.request.mode}): {reason}")
    return outcome, bool(failures)


def _report(request: LintRequest, outcome: Outcome, failed: bool) -> int:
    """Write the report and the summary line; the exit code."""

    # A finding that a probe ran through without a break stays in JSON, out of sight elsewhere,
    # and does not fail the run.
    def visible(findings: list[Finding]) -> list[Finding]:
        if request.show_not_reproduced:
            return findings
        return [f for f in findings if f.status != Status.NOT_REPRODUCED]

    warnings(outcome.warnings)
    shown = visible(outcome.findings)
    main = ReportTarget(request.output_format, request.output_file)
    targets = (main, *request.reports)
    notes: dict[str, str] = {}
    edited = _with_edits(outcome.findings, targets, notes, request.jobs)
    warnings(f"{path}: {note}" for path, note in notes.items())
    # Counted after the edits are made, which can take longer than linting.
    elapsed = time.perf_counter() - request.started
    summary = Summary(
        outcome.files_checked,
        elapsed,
        outcome.files_skipped,
        outcome.probes,
        outcome.files,
        outcome.shard,
    )
    for target in targets:
        findings = edited if target.format in CARRIES_EDITS else outcome.findings
        reported = findings if target.format == "json" else visible(findings)
        try:
            _write_report(target, reported, summary, request.output)
        except OSError as problem:
            error(f"cannot write report to '{target.path}': {problem.strerror or problem}")
            return EXIT_ERROR
    if not request.quiet:
        # The line counts the reports' writing too (a JSON report of a large tree takes long).
        summary = replace(summary, elapsed_s=time.perf_counter() - request.started)
        if shown or not failed:  # "All checks passed" never follows an error
            sys.stderr.write(summary_line(shown, summary) + "\n")
        if outcome.fixed:
            sys.stderr.write(fixed_summary(outcome.fixed))
        # --hf models are installed code: breaklint never fixes them.
        hint = None if request.hf else fix_hint(shown, request.unsafe_fixes)
        if hint:
            sys.stderr.write(hint + "\n")
    # A BL002 finding means breaklint failed on some code: CI must notice; so must a fix that
    # could not be written.
    if failed or any(f.code == INTERNAL_ERROR for f in shown):
        return EXIT_ERROR
    return EXIT_FINDINGS if shown and not request.exit_zero else EXIT_CLEAN


def _with_edits(
    findings: list[Finding], targets: Sequence[ReportTarget], notes: dict[str, str], jobs: int
) -> list[Finding]:
    """The findings with their fixes' text edits when a report carries them (made once for
    all such reports, in `jobs` processes); as they are otherwise. `notes` gets why a file's
    fixes are left out."""
    if not any(t.format in CARRIES_EDITS for t in targets) or not any(f.fix for f in findings):
        return findings
    from breaklint.fixer import with_edits  # libcst, only when edits are shown

    return with_edits(findings, notes, jobs=jobs)


def _write_report(
    target: ReportTarget, findings: list[Finding], summary: Summary, options: OutputOptions
) -> None:
    writer = WRITERS[target.format]
    if target.path is None:
        writer(findings, sys.stdout, summary, options)
        return
    with open(target.path, "w", encoding="utf-8") as out:
        writer(findings, out, summary, options)


def _show_diff(linted: Outcome, request: LintRequest) -> int:
    """`--diff`: the fixes `--fix` would write, as a unified diff on stdout; exit 1 when there
    is one."""
    from breaklint.discovery import linted_trees
    from breaklint.fixer import plan_fixes, unified_diff

    findings, unsafe = linted.findings, request.unsafe_fixes
    plan = plan_fixes(
        findings, unsafe=unsafe, linted=linted.digests, trees=linted_trees(request.paths)
    )
    warnings(f"{path}: {note}" for path, note in plan.notes.items())
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
