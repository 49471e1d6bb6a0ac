"""The lint pipeline: what a run was asked (`LintRequest`), what it produced (a frozen
`Outcome`), and its two phases, each giving an outcome: the static phase (the engine over the
files) and the dynamic phase (the probes, joined into the findings). `--fix` runs between them
(`fix_verify`); `commands.lint` chains them and reports."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from breaklint.config import ConfigError, Selection, Settings
from breaklint.console import warning
from breaklint.dynamic.variant_mode import VariantMode
from breaklint.findings import Finding
from breaklint.report import OutputOptions, ReportTarget

if TYPE_CHECKING:
    from breaklint.dynamic.model import OutputsPlan, ProbeResult
    from breaklint.dynamic.phase import DynamicResult
    from breaklint.dynamic.shards import Shard
    from breaklint.hf_models import HFRequest


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
    variants: VariantMode  # which variants of each probe's call count recompilations
    variant_budget: float  # seconds of variant calls per probe; 0: no limit
    cudagraphs: bool  # also compile each probe with mode="reduce-overhead" on CUDA (BL920)
    output_format: str
    output_file: Path | None
    output: OutputOptions
    show_not_reproduced: bool
    exit_zero: bool
    quiet: bool
    reports: tuple[ReportTarget, ...] = ()  # written besides the main report
    hf: HFRequest | None = None  # --hf models to build and probe
    shard: Shard | None = None  # --shard I/N: run only the probes of this shard


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the phases produced, for the report and the exit code."""

    findings: list[Finding]
    files_checked: int
    files_skipped: int
    probes: list[ProbeResult] | None = None  # if probes ran
    fixed: Counter[str] = field(default_factory=Counter)  # findings fixed, by rule code
    fix_failed: bool = False
    files: list[str] = field(default_factory=list)  # the files linted
    warnings: list[str] = field(default_factory=list)  # for stderr, once
    digests: dict[str, str | None] = field(default_factory=dict)  # of each file as linted
    shard: dict[str, Any] | None = None  # what `breaklint merge` needs of a --shard run


def given_probes(request: LintRequest) -> list[str]:
    """The probe files and folders a run is given: on the command line, or with --dynamic,
    in the settings."""
    return list(request.probes) or (list(request.settings.probes) if request.dynamic else [])


def static(request: LintRequest, files: list[str], selection: Selection) -> Outcome:
    from breaklint.engine import lint_paths

    result = lint_paths(
        files,
        request.settings,
        request.jobs,
        request.use_cache,
        selection,
        probes=given_probes(request),
    )
    return Outcome(
        result.findings,
        result.files_checked,
        result.files_skipped,
        files=files,
        warnings=result.warnings,
        digests=result.digests,
    )


def with_dynamic(
    request: LintRequest,
    selection: Selection,
    files: list[str],
    outcome: Outcome,
    probe_paths: list[str],
) -> Outcome:
    """The dynamic phase, joined into `outcome`."""
    result = dynamic(request, selection, files, outcome.findings, probe_paths)
    shard = None
    if request.shard is not None:
        from breaklint.merge import shard_section

        shard = shard_section(
            request.shard, outcome.findings, result.probes, result.order, files, selection.allows
        )
    return replace(outcome, findings=result.findings, probes=result.probes, shard=shard)


def dynamic(
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

    if not request.probe_timeout > 0:  # NaN too
        raise ConfigError("--probe-timeout must be positive")
    if not request.variant_budget >= 0:  # NaN too
        raise ConfigError("--variant-budget must be a number of seconds, or 0 for no limit")
    if request.probe_memory is not None and request.probe_memory < 0:
        raise ConfigError("--probe-memory must be a number of megabytes, or 0 for no limit")
    if request.cudagraphs and request.device == "cpu":
        raise ConfigError("--cudagraphs needs a CUDA GPU: it cannot run with --device cpu")
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
            variant_budget_s=request.variant_budget,
            cudagraphs=request.cudagraphs,
            allowed=selection.allows,
            progress=not request.quiet,
            outputs=outputs,
            shard=request.shard,
        )
    except DynamicError as problem:
        raise ConfigError(str(problem)) from None
    for message in result.warnings:
        warning(message)
    return result
