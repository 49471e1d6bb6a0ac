"""`breaklint [OPTIONS] [PATH ...]`, `breaklint rule CODE`, `breaklint rules`, `breaklint graph`
and `breaklint server`."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from breaklint import __version__
from breaklint.codes import known_codes
from breaklint.commands import lint, list_rules, show_rule
from breaklint.config import (
    SCOPES,
    ConfigError,
    Settings,
    check_selectors,
    find_pyproject,
    load_pyproject,
    parse_per_file_ignore,
)
from breaklint.console import EXIT_ERROR, error, report_crash
from breaklint.dynamic.variant_mode import VariantMode
from breaklint.pipeline import LintRequest
from breaklint.report import FORMATS, OutputOptions, ReportTarget

if TYPE_CHECKING:  # imported where used: a plain lint loads neither
    from breaklint.dynamic.shards import Shard
    from breaklint.hf_models import HFRequest

_HF_HELP = (
    "a transformers model type (gpt2, llama...), a folder with a config.json, or 'all' for "
    "every type; built small, probed, its modeling source linted (repeatable)"
)


def _csv(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _report_target(value: str) -> ReportTarget:
    format, separator, path = value.partition(":")
    if not separator or not path or format not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"'{value}' is not FORMAT:PATH with FORMAT one of {', '.join(FORMATS)}"
        )
    return ReportTarget(format, Path(path))


def _shard(value: str) -> Shard:
    from breaklint.dynamic.shards import Shard

    try:
        return Shard.parse(value)
    except ValueError as problem:
        raise argparse.ArgumentTypeError(str(problem)) from None


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
        "--dependencies",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="follow calls into installed libraries and report their breaks at the calls "
        "(default: on)",
    )
    parser.add_argument(
        "--dependencies-exclude",
        type=_csv,
        help="top-level packages of installed libraries never to follow (comma-separated)",
    )
    parser.add_argument(
        "--roots",
        type=_csv,
        help="compile roots to keep, as patterns of `Class.forward` or `pkg.module.Class.*`",
    )
    parser.add_argument("--output-format", choices=FORMATS, default="full")
    parser.add_argument("--output-file", type=Path, help="write the report here, not stdout")
    parser.add_argument(
        "--report",
        action="append",
        type=_report_target,
        default=[],
        metavar="FORMAT:PATH",
        help="also write a report in FORMAT to PATH (repeatable), e.g. sarif:breaklint.sarif",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("--config", type=Path, help="pyproject.toml to read settings from")
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 1, help="worker processes"
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="no progress and no summary on stderr"
    )
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
    dynamic.add_argument(
        "--probe-memory",
        type=int,
        metavar="MB",
        help="memory limit per probe worker (default: three quarters of the machine's memory "
        "divided among the --jobs workers; 0: no limit)",
    )
    dynamic.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    dynamic.add_argument(
        "--cudagraphs",
        action="store_true",
        help='also compile each probe with mode="reduce-overhead" on the CUDA GPU and report '
        "where Inductor runs a graph without CUDA graphs (BL920)",
    )
    variants = dynamic.add_mutually_exclusive_group()
    variants.add_argument(
        "--no-variants",
        action="store_const",
        dest="variants",
        const=VariantMode.NONE,
        default=VariantMode.GUIDED,
        help="run each probe's call once: derive no variants to count recompilations",
    )
    variants.add_argument(
        "--all-variants",
        action="store_const",
        dest="variants",
        const=VariantMode.ALL,
        help="vary every dimension size, int, float and bool argument, not only what a guard "
        "of the first compile reads",
    )
    dynamic.add_argument(
        "--variant-budget",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="time the variant calls of one probe may take (default 60; 0: no limit)",
    )
    dynamic.add_argument(
        "--shard",
        type=_shard,
        metavar="I/N",
        help="run only shard I of N of the probes and --hf models (split by a hash of their "
        "names); merge the JSON reports with 'breaklint merge'",
    )
    dynamic.add_argument(
        "--show-bytecode", action="store_true", help="full format: bytecode at each break"
    )
    dynamic.add_argument(
        "--show-not-reproduced",
        action="store_true",
        help="also show static findings that a probe ran without a break (JSON always has them)",
    )
    models = parser.add_argument_group("Hugging Face models (built small from their configs)")
    models.add_argument("--hf", action="append", default=[], metavar="MODEL", help=_HF_HELP)
    models.add_argument("--hf-mode", choices=("eval", "train"), default="eval")
    models.add_argument(
        "--trust-remote-code",
        action="store_true",
        help="run the custom modeling code of a --hf folder (its config.json's auto_map)",
    )
    parser.add_argument("--version", action="version", version=f"breaklint {__version__}")
    return parser


def _hf_request(args: argparse.Namespace) -> HFRequest | None:
    if not args.hf:
        return None
    if "all" in args.hf and len(args.hf) > 1:
        raise ConfigError("--hf all runs every model type: give it alone")
    if args.fix or args.diff:
        raise ConfigError("--fix and --diff do not apply to --hf models (installed code)")
    from breaklint.hf_models import HFRequest

    return HFRequest(tuple(args.hf), args.hf_mode, args.trust_remote_code)


def _settings(args: argparse.Namespace) -> Settings:
    if args.isolated:
        settings = Settings()
    elif args.config is not None:
        if not args.config.is_file():
            raise ConfigError(f"configuration file '{args.config}' does not exist")
        settings = load_pyproject(args.config)
    else:
        start = Path(os.path.commonpath([os.path.abspath(p) for p in args.paths or ["."]]))
        found = find_pyproject(start if start.is_dir() else start.parent)
        settings = load_pyproject(found) if found else Settings()
    codes = known_codes()
    settings.check_selectors(codes)
    for option in ("select", "extend_select", "ignore"):
        check_selectors(tuple(getattr(args, option) or ()), codes, f"--{option.replace('_', '-')}")
    changes: dict[str, Any] = {}
    if args.select is not None:
        changes["select"] = tuple(args.select)
    if args.exclude is not None:
        changes["exclude"] = tuple(args.exclude)
    if args.force_exclude is not None:
        changes["force_exclude"] = args.force_exclude
    if args.scope is not None:
        changes["scope"] = args.scope
    if args.dependencies is not None:
        changes["dependencies"] = args.dependencies
    if args.dependencies_exclude is not None:
        changes["dependencies_exclude"] = settings.dependencies_exclude + tuple(
            args.dependencies_exclude
        )
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


def _process_start() -> float:
    """When this process started, on the `time.perf_counter()` clock, so that the summary's
    time covers the interpreter's start and imports too. Linux tells (to the clock tick);
    elsewhere this is now."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            ticks = int(handle.read().rpartition(")")[2].split()[19])  # field 22: starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if age >= 0 else now


def _lint(argv: list[str], started: float) -> int:
    args = _lint_parser().parse_args(argv)
    args.paths = args.paths or ([] if args.hf else ["."])  # --hf alone lints only the models
    if args.jobs < 1:
        error("--jobs must be at least 1")
        return EXIT_ERROR
    try:
        if args.shard is not None and (args.fix or args.diff):
            raise ConfigError("--shard runs part of the probes: it cannot verify --fix or --diff")
        settings = _settings(args)
        hf = _hf_request(args)
    except ConfigError as problem:
        error(str(problem))
        return EXIT_ERROR
    return lint(
        LintRequest(
            paths=args.paths,
            settings=settings,
            started=started,
            jobs=args.jobs,
            use_cache=not args.no_cache,
            fix=args.fix,
            unsafe_fixes=args.unsafe_fixes,
            diff=args.diff,
            probes=tuple(args.probes),
            dynamic=args.dynamic,
            probe_timeout=args.probe_timeout,
            probe_memory=args.probe_memory,
            device=args.device,
            variants=args.variants,
            variant_budget=args.variant_budget,
            cudagraphs=args.cudagraphs,
            output_format=args.output_format,
            output_file=args.output_file,
            output=OutputOptions(show_bytecode=args.show_bytecode),
            show_not_reproduced=args.show_not_reproduced,
            exit_zero=args.exit_zero,
            quiet=args.quiet,
            reports=tuple(args.report),
            hf=hf,
            shard=args.shard,
        )
    )


def _rule_command(argv: list[str], out: IO[str]) -> int:
    if argv[0] == "rules":
        if len(argv) > 1:
            error("'breaklint rules' takes no arguments")
            return EXIT_ERROR
        return list_rules(out)
    if len(argv) != 2:
        error("usage: breaklint rule CODE")
        return EXIT_ERROR
    return show_rule(argv[1], out)


def _graph_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="breaklint graph",
        description="Show the FX graphs Dynamo captures for a probe, say whether the model is "
        "editable (one graph, no break), and check edits that wrap named nodes.",
    )
    parser.add_argument(
        "target", metavar="TARGET", help="probes.py::probe_name, or a probe file for all probes"
    )
    parser.add_argument(
        "--wrap",
        action="append",
        default=[],
        dest="wraps",
        metavar="NODE",
        help="insert a pass-through module after NODE (FX name, graphN:name or a module path) "
        "and check it; repeatable",
    )
    parser.add_argument(
        "--all-nodes", action="store_true", help="list lifted parameters one per row"
    )
    parser.add_argument("--output-format", choices=("full", "json"), default="full")
    parser.add_argument(
        "--emit-backend",
        type=Path,
        metavar="FILE",
        help="write a torch-only module with the backend doing the wraps and a usage example",
    )
    parser.add_argument(
        "--probe-timeout", type=float, default=300.0, metavar="SECONDS", help="limit per probe"
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    return parser


def _graph(argv: list[str]) -> int:
    from breaklint.graph_command import GraphCommand, graph

    args = _graph_parser().parse_args(argv)
    args.wraps = tuple(args.wraps)
    return graph(GraphCommand(**vars(args)))


def _merge(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="breaklint merge",
        description="Merge the JSON reports of the shards of one run (--shard I/N "
        "--output-format json) into the JSON report of the whole run.",
    )
    parser.add_argument("reports", nargs="+", metavar="REPORT.json")
    parser.add_argument("--output-file", type=Path, help="write the report here, not stdout")
    args = parser.parse_args(argv)
    from breaklint.merge import merge_command

    return merge_command(args.reports, args.output_file)


def _server(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog="breaklint server",
        description="Serve the Language Server Protocol on stdin and stdout, for editors: "
        "diagnostics as you type, quick fixes, fix-all, hover (see docs/editors.md).",
    ).parse_args(argv)
    import importlib.util

    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        error("breaklint server needs pygls and lsprotocol: pip install 'breaklint[lsp]'")
        return EXIT_ERROR
    from breaklint.lsp.server import serve

    return serve()


def _terminated(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


def main(argv: list[str] | None = None) -> int:
    """The command line (`sys.argv` when `argv` is None, as the program: its summary then
    counts from the process's start)."""
    started = _process_start() if argv is None else time.perf_counter()
    if argv is None:  # the program: SIGTERM unwinds like Ctrl-C, so probe workers end too
        signal.signal(signal.SIGTERM, _terminated)
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in ("rule", "rules"):
            return _rule_command(argv, sys.stdout)
        if argv and argv[0] == "graph":
            return _graph(argv[1:])
        if argv and argv[0] == "server":
            return _server(argv[1:])
        if argv and argv[0] == "merge":
            return _merge(argv[1:])
        return _lint(argv, started)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_ERROR
    except Exception as crash:  # a bug in breaklint: CI must not read it as findings (exit 1)
        report_crash(crash)
        return EXIT_ERROR
