"""One pipeline per command: `lint` (settings -> discovery -> static phase -> fixes -> dynamic
phase -> report -> exit code), `list_rules` and `show_rule`. The command line only parses."""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from breaklint.codes import code_declared_in, known_codes
from breaklint.config import ConfigError, Selection, Settings
from breaklint.findings import Finding, Status
from breaklint.report import (
    CARRIES_EDITS,
    WRITERS,
    OutputOptions,
    ReportTarget,
    Summary,
    summary_line,
)

if TYPE_CHECKING:
    from breaklint.dynamic.model import OutputsPlan, ProbeResult
    from breaklint.dynamic.phase import DynamicResult
    from breaklint.fixer import FileFix
    from breaklint.hf_models import HFRequest, HFRun

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
    variants: bool  # derive variants of each probe's call to count recompilations
    output_format: str
    output_file: Path | None
    output: OutputOptions
    show_not_reproduced: bool
    exit_zero: bool
    quiet: bool
    reports: tuple[ReportTarget, ...] = ()  # written besides the main report
    hf: HFRequest | None = None  # --hf models to build and probe


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
    fixed: Counter[str] = field(default_factory=Counter)  # findings fixed, by rule code
    fix_failed: bool = False
    files: list[str] = field(default_factory=list)  # the files linted


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
        models = _hf_models(request)
        files = found.files + (models.files if models else [])
        probe_paths = list(request.probes) or (list(settings.probes) if request.dynamic else [])
        if request.dynamic and not probe_paths:
            raise ConfigError(
                "--dynamic needs probes: pass --probes or set [tool.breaklint] probes"
            )
        probe_paths += [models.probe_file] if models else []
        if request.fix and probe_paths:
            outcome = _fixed_and_verified(request, files, selection, probe_paths)
        else:
            outcome = _fixed(request, files, selection)
            if probe_paths:
                _run_dynamic(request, selection, files, outcome, probe_paths)
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
    not_built = _report_models(request, models, outcome) if models else False
    failed = bool(found.missing) or outcome.fix_failed or not_built
    return _report(request, outcome, failed=failed)


def _hf_models(request: LintRequest) -> HFRun | None:
    """`--hf`: the models, their probe file and their modeling files; None without it."""
    from breaklint.hf_models import HFError, prepared

    try:
        return prepared(request.hf)
    except HFError as problem:
        raise ConfigError(str(problem)) from None


def _report_models(request: LintRequest, models: HFRun, outcome: _Outcome) -> bool:
    """The model table on stderr, and an error for each model that could not be built (in
    the zoo, `--hf all`, a row says so instead). Whether the run failed."""
    from breaklint.hf_models import write_table

    models.close()
    results = outcome.probes or []
    failures = models.build_failures(results)
    # A model that cannot be built is named here, not as a failed probe in a temporary file.
    unbuilt = {f"{models.probe_file}::{model.probe}" for model, _ in failures}
    outcome.findings = [
        f for f in outcome.findings if getattr(f.evidence, "probe", None) not in unbuilt
    ]
    if not request.quiet:
        write_table(models.rows(results, outcome.findings), sys.stderr)
    outcome.probes, outcome.findings = models.relabeled(results, outcome.findings)
    if models.zoo:
        return False
    for model, reason in failures:
        error(f"cannot build --hf {model.spec} ({models.request.mode}): {reason}")
    return bool(failures)


def _static(request: LintRequest, files: list[str], selection: Selection) -> _Outcome:
    from breaklint.engine import lint_paths

    result = lint_paths(files, request.settings, request.jobs, request.use_cache, selection)
    return _Outcome(result.findings, result.files_checked, result.files_skipped, files=files)


# As in ruff: a fix can make another one possible (an inner `if` rewritten leaves its outer
# `if` assigning values); `--fix` lints and fixes again until nothing changes, this many times.
MAX_FIX_ROUNDS = 10


@dataclass(slots=True)
class _FixRun:
    """What `--fix` did over all its rounds."""

    outcome: _Outcome  # the static phase after the last round
    files: dict[str, FileFix]  # by path: text before the first round, after the last
    problems: dict[str, str]  # files that could not be fixed or written, and why


def _fix_rounds(
    request: LintRequest, files: list[str], selection: Selection, outcome: _Outcome
) -> _FixRun:
    from breaklint.fixer import FileFix, plan_fixes, write_fixes

    run = _FixRun(outcome, {}, {})
    for _ in range(MAX_FIX_ROUNDS):
        plan = plan_fixes(run.outcome.findings, unsafe=request.unsafe_fixes)
        plan.files = [file for file in plan.files if file.path not in run.problems]
        problems = plan.problems | write_fixes(plan)
        run.problems |= problems
        written = [file for file in plan.files if file.path not in problems]
        if not written:
            break
        for file in written:
            first = run.files.get(file.path, file)
            applied = first.applied + file.applied if first is not file else file.applied
            run.files[file.path] = FileFix(
                file.path, file.encoding, first.original, file.fixed, applied
            )
        run.outcome = _static(request, files, selection)
    for path, problem in run.problems.items():
        error(f"{path}: {problem}")
    return run


def _fixed(request: LintRequest, files: list[str], selection: Selection) -> _Outcome:
    """The static phase, with `--fix`: the fixes written, then what is left at its new
    positions."""
    outcome = _static(request, files, selection)
    if not request.fix:
        return outcome
    run = _fix_rounds(request, files, selection, outcome)
    run.outcome.fixed = Counter(f.code for file in run.files.values() for f in file.applied)
    run.outcome.fix_failed = bool(run.problems)
    return run.outcome


def _fixed_and_verified(
    request: LintRequest, files: list[str], selection: Selection, probe_paths: list[str]
) -> _Outcome:
    """`--fix` with probes checks its own work: every probe runs before and after the fixes
    (same seed), and a file keeps its fixes only when each probe that ran its code before
    still runs, gives equal eager outputs and breaks no more often; otherwise the file gets
    its old text back, byte for byte. Then the static and dynamic phases see the result."""
    from breaklint.dynamic.model import OutputsPlan

    outcome = _static(request, files, selection)
    if not any(f.fix is not None and f.fix.applies(request.unsafe_fixes) for f in outcome.findings):
        _run_dynamic(request, selection, files, outcome, probe_paths)
        return outcome
    with tempfile.TemporaryDirectory(prefix="breaklint-outputs-") as folder:
        before = _dynamic(
            request, selection, files, outcome.findings, probe_paths, OutputsPlan(folder, False)
        )
        run = _fix_rounds(request, files, selection, outcome)
        fixed = run.outcome
        after = _dynamic(
            request, selection, files, fixed.findings, probe_paths, OutputsPlan(folder, True)
        )
    written = list(run.files.values())
    rejected = _keep_verified(written, before.probes, after.probes, request.quiet)
    for path, why in rejected.why.items():
        error(f"{path}: {why}")
    kept = [file for file in written if file.path not in rejected.why]
    if rejected.undone:  # files have their old text again: what is reported is what is on disk
        fixed = _static(request, files, selection)
        _run_dynamic(request, selection, files, fixed, probe_paths)
    else:
        fixed.findings, fixed.probes = after.findings, after.probes
    fixed.fixed = Counter(f.code for file in kept for f in file.applied)
    fixed.fix_failed = bool(run.problems) or len(rejected.undone) < len(rejected.why)
    return fixed


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


def _report(request: LintRequest, outcome: _Outcome, failed: bool) -> int:
    """Write the report and the summary line; the exit code."""

    # A finding that a probe ran through without a break stays in JSON, out of sight elsewhere,
    # and does not fail the run.
    def visible(findings: list[Finding]) -> list[Finding]:
        if request.show_not_reproduced:
            return findings
        return [f for f in findings if f.status != Status.NOT_REPRODUCED]

    shown = visible(outcome.findings)
    main = ReportTarget(request.output_format, request.output_file)
    targets = (main, *request.reports)
    edited = _with_edits(outcome.findings, targets)
    # Counted after the edits are made, which can take longer than linting.
    elapsed = time.perf_counter() - request.started
    summary = Summary(
        outcome.files_checked, elapsed, outcome.files_skipped, outcome.probes, outcome.files
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
        sys.stderr.write(summary_line(shown, summary) + "\n")
        if outcome.fixed:
            sys.stderr.write(_fixed_summary(outcome.fixed))
        # --hf models are installed code: breaklint never fixes them.
        hint = None if request.hf else _fix_hint(shown, request.unsafe_fixes)
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


def _with_edits(findings: list[Finding], targets: Sequence[ReportTarget]) -> list[Finding]:
    """The findings with their fixes' text edits when a report carries them (made once for
    all such reports); as they are otherwise."""
    if not any(t.format in CARRIES_EDITS for t in targets) or not any(f.fix for f in findings):
        return findings
    from breaklint.fixer import with_edits  # libcst, only when edits are shown

    return with_edits(findings)


def _write_report(
    target: ReportTarget, findings: list[Finding], summary: Summary, options: OutputOptions
) -> None:
    writer = WRITERS[target.format]
    if target.path is None:
        writer(findings, sys.stdout, summary, options)
        return
    with open(target.path, "w", encoding="utf-8") as out:
        writer(findings, out, summary, options)


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
    if request.probe_memory is not None and request.probe_memory < 0:
        raise ConfigError("--probe-memory must be a number of megabytes, or 0 for no limit")
    try:
        result = run_dynamic(
            findings,
            files,
            probe_paths,
            jobs=request.jobs,
            timeout_s=request.probe_timeout,
            memory_mb=request.probe_memory,
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


@dataclass(frozen=True, slots=True)
class GraphCommand:
    """What the user asked of `breaklint graph TARGET`."""

    target: str  # `probes.py::probe_name`, or a probe file for all its probes
    wraps: tuple[str, ...]
    all_nodes: bool
    output_format: str  # full or json
    emit_backend: Path | None
    probe_timeout: float
    device: str


def graph(request: GraphCommand) -> int:
    """`breaklint graph`: the captured graphs of each probe, its editability and the `--wrap`
    checks; 0 when every probe is editable and every wrap held, 1 otherwise."""
    from breaklint.dynamic.model import GraphRequest, ProbeStatus
    from breaklint.dynamic.pool import DynamicError, WorkerPool, default_memory_mb
    from breaklint.graph_view import backend_source, judge, to_json, write_full

    try:
        probes = _graph_probes(request)
        pool = WorkerPool(1, request.probe_timeout, request.device, default_memory_mb(1))
        results = pool.run_graphs([GraphRequest(probe, request.wraps) for probe in probes])
    except (ConfigError, DynamicError) as problem:
        error(str(problem))
        return EXIT_ERROR
    views = judge(results)
    if request.output_format == "json":
        import json

        sys.stdout.write(json.dumps(to_json(views), indent=2) + "\n")
    else:
        write_full(views, sys.stdout, request.all_nodes)
    if any(r.status is not ProbeStatus.OK for r in results):
        return EXIT_ERROR
    held = all(wrap.ok for r in results for wrap in r.wraps)
    if request.emit_backend is not None:
        if not held:
            error(f"--emit-backend: '{request.emit_backend}' not written: a wrap failed")
            return EXIT_FINDINGS
        try:
            request.emit_backend.write_text(backend_source(results[0]), encoding="utf-8")
        except OSError as problem:
            error(f"cannot write '{request.emit_backend}': {problem.strerror or problem}")
            return EXIT_ERROR
        sys.stderr.write(f"breaklint: wrote the backend to '{request.emit_backend}'\n")
    return EXIT_CLEAN if held and all(view.editable for view in views) else EXIT_FINDINGS


def _graph_probes(request: GraphCommand) -> list[Any]:
    """The probes TARGET names; ConfigError with a one-line reason when it names none."""
    import difflib
    import importlib.util

    from breaklint.dynamic.probes import find_probes

    if request.probe_timeout <= 0:
        raise ConfigError("--probe-timeout must be positive")
    if request.emit_backend is not None and not request.wraps:
        raise ConfigError("--emit-backend needs at least one --wrap NODE")
    path, _, name = request.target.partition("::")
    if not os.path.isfile(path):
        raise ConfigError(f"probe file '{path}' does not exist")
    found = find_probes([path])
    if found.problems:
        raise ConfigError(f"{path}: {found.problems[0].error}")
    probes = [p for p in found.probes if not name or p.name == name]
    if not probes:
        closest = difflib.get_close_matches(name, [p.name for p in found.probes], n=3)
        hint = f"; closest: {', '.join(closest)}" if closest else ""
        raise ConfigError(f"no probe '{name}' in {path}{hint}")
    if request.emit_backend is not None and len(probes) > 1:
        raise ConfigError("--emit-backend needs one probe: name it as FILE::probe_name")
    if importlib.util.find_spec("torch") is None:
        raise ConfigError("breaklint graph needs torch: pip install 'breaklint[dynamic]'")
    return probes
