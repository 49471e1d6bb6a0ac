"""`breaklint [OPTIONS] [PATH ...]`, `breaklint rule CODE` and `breaklint rules`."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import IO

from breaklint import __version__
from breaklint.config import (
    SCOPES,
    ConfigError,
    Settings,
    find_pyproject,
    load_pyproject,
    parse_per_file_ignore,
)
from breaklint.report import FORMATS, WRITERS, Summary, summary_line

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
    parser.add_argument("--output-format", choices=FORMATS, default="full")
    parser.add_argument("--output-file", type=Path, help="write the report here, not stdout")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("--config", type=Path, help="pyproject.toml to read settings from")
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 1, help="worker processes"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
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
    changes: dict = {}
    if args.select is not None:
        changes["select"] = tuple(args.select)
    if args.exclude is not None:
        changes["exclude"] = tuple(args.exclude)
    if args.force_exclude is not None:
        changes["force_exclude"] = args.force_exclude
    if args.scope is not None:
        changes["scope"] = args.scope
    changes["extend_select"] = settings.extend_select + tuple(args.extend_select)
    changes["ignore"] = settings.ignore + tuple(args.ignore)
    changes["extend_exclude"] = settings.extend_exclude + tuple(args.extend_exclude)
    changes["per_file_ignores"] = settings.per_file_ignores + tuple(
        parse_per_file_ignore(text) for text in args.per_file_ignores
    )
    if any(key in changes for key in ("select", "exclude", "scope")) or args.per_file_ignores:
        changes["source"] = f"{settings.source} and the command line"
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
        result = lint_paths(found.files, settings, args.jobs)
    except ConfigError as error:
        _error(str(error))
        return EXIT_ERROR
    for missing in found.missing:
        _error(f"path '{missing}' does not exist")
    for empty in found.empty:
        sys.stderr.write(f"breaklint: warning: no Python files found under '{empty}'\n")
    summary = Summary(result.files_checked, time.perf_counter() - started, result.files_skipped)
    try:
        _write_report(args, result.findings, summary)
    except OSError as error:
        _error(f"cannot write report to '{args.output_file}': {error.strerror or error}")
        return EXIT_ERROR
    if not args.quiet:
        sys.stderr.write(summary_line(result.findings, summary) + "\n")
    if found.missing:
        return EXIT_ERROR
    return EXIT_FINDINGS if result.findings and not args.exit_zero else EXIT_CLEAN


def _write_report(args: argparse.Namespace, findings: list, summary: Summary) -> None:
    writer = WRITERS[args.output_format]
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
            out.write(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {rule.message}\n")
        return EXIT_CLEAN
    if len(argv) != 2:
        _error("usage: breaklint rule CODE")
        return EXIT_ERROR
    rule = rules.get(argv[1].upper())
    if rule is None:
        _error(f"unknown rule '{argv[1]}' (see 'breaklint rules')")
        return EXIT_ERROR
    out.write(rule_page(rule))
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
