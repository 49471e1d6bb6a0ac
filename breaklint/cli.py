"""`breaklint [OPTIONS] [PATH ...]`, `breaklint rule CODE` and `breaklint rules`."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import IO

from breaklint import __version__
from breaklint.codes import code_declared_in, known_codes
from breaklint.config import (
    SCOPES,
    ConfigError,
    Settings,
    check_selectors,
    find_pyproject,
    load_pyproject,
    parse_per_file_ignore,
)
from breaklint.findings import Finding, Status
from breaklint.report import FORMATS, WRITERS, Summary, summary_line, write_full

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _csv(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _lint_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="breaklint",
        description="Find where torch.compile (TorchDynamo) will break your model into several "
        "graphs. Also: 'breaklint rule CODE' prints a rule's page, 'breaklint rules' lists them.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    parser.add_argument("--select", type=_csv, help="rule codes or prefixes to enable, or ALL")
    parser.add_argument("--extend-select", type=_csv, default=[], help="add to the selection")
    parser.add_argument("--ignore", type=_csv, default=[], help="rule codes or prefixes to skip")
    parser.add_argument(
        "--per-file-ignores",
        action="append",
        default=[],
        metavar="PATTERN:CODES",
        help="ignore codes in files matching a glob (repeatable)",
    )
    parser.add_argument("--exclude", type=_csv, help="glob patterns to skip (replaces defaults)")
    parser.add_argument("--extend-exclude", type=_csv, default=[], help="more patterns to skip")
    parser.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="apply excludes to files named explicitly too (for pre-commit)",
    )
    parser.add_argument("--scope", choices=SCOPES, help="compiled code only (default) or all")
    parser.add_argument(
        "--roots",
        type=_csv,
        help="compile roots to keep, as patterns of `Class.forward` or `pkg.module.Class.*`",
    )
    parser.add_argument("--output-format", choices=FORMATS, default="full")
    parser.add_argument("--output-file", type=Path, help="write the report here, not stdout")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("--config", type=Path, help="pyproject.toml to read settings from")
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 1, help="worker processes"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write .breaklint_cache/"
    )
    fixes = parser.add_argument_group("fixes (written only with --fix)")
    fixes.add_argument("--fix", action="store_true", help="apply the fixes rules offer, in place")
    fixes.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply fixes that change what compiled code does (see each rule's page)",
    )
    fixes.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
    )
    dynamic = parser.add_argument_group("dynamic phase (runs your code under torch.compile)")
    dynamic.add_argument(
        "--probes",
        action="append",
        default=[],
        metavar="FILE_OR_DIR",
        help="probe files (probe_* functions returning (callable, args[, kwargs])); repeatable",
    )
    dynamic.add_argument(
        "--dynamic", action="store_true", help="run the probes listed in [tool.breaklint] probes"
    )
    dynamic.add_argument(
        "--probe-timeout", type=float, default=300.0, metavar="SECONDS", help="limit per probe"
    )
    dynamic.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    dynamic.add_argument(
        "--show-bytecode", action="store_true", help="full format: bytecode at each break"
    )
    dynamic.add_argument(
        "--show-not-reproduced",
        action="store_true",
        help="also show static findings that a probe ran without a break (JSON always has them)",
    )
    parser.add_argument("--version", action="version", version=f"breaklint {__version__}")
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    if args.isolated:
        settings = Settings()
    elif args.config is not None:
        if not args.config.is_file():
            raise ConfigError(f"configuration file '{args.config}' does not exist")
        settings = load_pyproject(args.config)
    else:
        start = Path(os.path.commonpath([os.path.abspath(p) for p in args.paths]))
        found = find_pyproject(start if start.is_dir() else start.parent)
        settings = load_pyproject(found) if found else Settings()
    codes = known_codes()
    settings.check_selectors(codes)
    for option in ("select", "extend_select", "ignore"):
        check_selectors(tuple(getattr(args, option) or ()), codes, f"--{option.replace('_', '-')}")
    changes: dict = {}
    if args.select is not None:
        changes["select"] = tuple(args.select)
    if args.exclude is not None:
        changes["exclude"] = tuple(args.exclude)
    if args.force_exclude is not None:
        changes["force_exclude"] = args.force_exclude
    if args.scope is not None:
        changes["scope"] = args.scope
    if args.roots is not None:
        changes["roots"] = tuple(args.roots)
    changes["extend_select"] = settings.extend_select + tuple(args.extend_select)
    changes["ignore"] = settings.ignore + tuple(args.ignore)
    changes["extend_exclude"] = settings.extend_exclude + tuple(args.extend_exclude)
    extra_ignores = tuple(parse_per_file_ignore(text) for text in args.per_file_ignores)
    for _, selectors in extra_ignores:
        check_selectors(selectors, codes, "--per-file-ignores")
    changes["per_file_ignores"] = settings.per_file_ignores + extra_ignores
    return replace(settings, **changes)


def _error(message: str) -> None:
    sys.stderr.write(f"breaklint: error: {message}\n")


def _lint(argv: list[str]) -> int:
    args = _lint_parser().parse_args(argv)
    args.paths = args.paths or ["."]
    if args.jobs < 1:
        _error("--jobs must be at least 1")
        return EXIT_ERROR
    started = time.perf_counter()
    try:
        settings = _settings(args)
        from breaklint.discovery import discover
        from breaklint.engine import lint_paths

        found = discover(args.paths, settings)
        result = lint_paths(found.files, settings, args.jobs, use_cache=not args.no_cache)
        if args.diff:
            return _show_diff(result.findings, args.unsafe_fixes)
        fixed, fix_failed = 0, False
        if args.fix:
            fixed, fix_failed = _apply_fixes(result.findings, args.unsafe_fixes)
            if fixed:  # report what is left, at its new positions
                result = lint_paths(found.files, settings, args.jobs, use_cache=not args.no_cache)
        probe_paths = args.probes or (list(settings.probes) if args.dynamic else [])
        if args.dynamic and not probe_paths:
            raise ConfigError(
                "--dynamic needs probes: pass --probes or set [tool.breaklint] probes"
            )
        probes: list | None = None
        if probe_paths:
            result.findings, probes = _run_dynamic(
                args, settings, found.files, result.findings, probe_paths
            )
    except ConfigError as error:
        _error(str(error))
        return EXIT_ERROR
    for missing in found.missing:
        _error(f"path '{missing}' does not exist")
    for empty in found.empty:
        sys.stderr.write(f"breaklint: warning: no Python files found under '{empty}'\n")
    summary = Summary(
        result.files_checked, time.perf_counter() - started, result.files_skipped, probes
    )
    # A finding that a probe ran through without a break stays in JSON, out of sight elsewhere,
    # and does not fail the run.
    shown = [
        f for f in result.findings
        if args.show_not_reproduced or f.status != Status.NOT_REPRODUCED
    ]  # fmt: skip
    try:
        _write_report(args, result.findings if args.output_format == "json" else shown, summary)
    except OSError as error:
        _error(f"cannot write report to '{args.output_file}': {error.strerror or error}")
        return EXIT_ERROR
    if not args.quiet:
        sys.stderr.write(summary_line(shown, summary) + "\n")
        if fixed:
            sys.stderr.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
        hint = _fix_hint(shown, args.unsafe_fixes)
        if hint:
            sys.stderr.write(hint + "\n")
    # A BL002 finding means breaklint failed on some code: CI must notice; so must a fix that
    # could not be written.
    internal_error = code_declared_in("internal_error")
    if found.missing or fix_failed or any(f.code == internal_error for f in shown):
        return EXIT_ERROR
    return EXIT_FINDINGS if shown and not args.exit_zero else EXIT_CLEAN


def _show_diff(findings: list[Finding], unsafe: bool) -> int:
    """`--diff`: the fixes as a unified diff on stdout; exit 1 when there is one."""
    from breaklint.fixer import plan_fixes, unified_diff

    plan = plan_fixes(findings, unsafe=unsafe)
    for path, problem in plan.problems.items():
        _error(f"{path}: {problem}")
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
        _error(f"{path}: {problem}")
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
    args: argparse.Namespace,
    settings: Settings,
    files: list[str],
    findings: list[Finding],
    probe_paths: list[str],
) -> tuple[list[Finding], list]:
    """The dynamic phase: imported only when probes are given (its workers import torch)."""
    from breaklint.dynamic.phase import run_dynamic
    from breaklint.dynamic.pool import DynamicError
    from breaklint.engine import codes_for

    if args.probe_timeout <= 0:
        raise ConfigError("--probe-timeout must be positive")
    enabled = settings.enabled_codes(known_codes())
    try:
        outcome = run_dynamic(
            findings,
            files,
            probe_paths,
            jobs=args.jobs,
            timeout_s=args.probe_timeout,
            device=args.device,
            allowed=lambda code, path: code in codes_for(path, settings, enabled),
            progress=sys.stderr.isatty() and not args.quiet,
        )
    except DynamicError as error:
        raise ConfigError(str(error)) from None
    for warning in outcome.warnings:
        sys.stderr.write(f"breaklint: warning: {warning}\n")
    return outcome.findings, outcome.probes


def _write_report(args: argparse.Namespace, findings: list, summary: Summary) -> None:
    writer = WRITERS[args.output_format]
    if args.output_format == "full":
        writer = partial(write_full, show_bytecode=args.show_bytecode)
    if args.output_file is None:
        writer(findings, sys.stdout, summary)
        return
    with open(args.output_file, "w", encoding="utf-8") as out:
        writer(findings, out, summary)


def _rule_command(argv: list[str], out: IO[str]) -> int:
    from breaklint.rule import all_rules, rule_page

    rules = all_rules()
    if argv[0] == "rules":
        if len(argv) > 1:
            _error("'breaklint rules' takes no arguments")
            return EXIT_ERROR
        for rule in rules.values():
            # Messages are templates filled in per finding: show their placeholders as "…".
            message = re.sub(r"\{\w+\}", "…", rule.message)
            out.write(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {message}\n")
        return EXIT_CLEAN
    if len(argv) != 2:
        _error("usage: breaklint rule CODE")
        return EXIT_ERROR
    wanted = rules.get(argv[1].upper())
    if wanted is None:
        _error(f"unknown rule '{argv[1]}' (see 'breaklint rules')")
        return EXIT_ERROR
    out.write(rule_page(wanted))
    return EXIT_CLEAN


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in ("rule", "rules"):
            return _rule_command(argv, sys.stdout)
        return _lint(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_ERROR
