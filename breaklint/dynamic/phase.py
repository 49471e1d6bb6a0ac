"""The dynamic phase end to end: find probes, run them in workers, join with static findings."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from breaklint.dynamic.join import flagged_span, is_statement_finding, join
from breaklint.dynamic.model import (
    OutputsPlan,
    ProbeResult,
    ProbeStatus,
    Watch,
)
from breaklint.dynamic.pool import DynamicError, WorkerPool, default_memory_mb
from breaklint.dynamic.probes import find_probes
from breaklint.dynamic.shards import Shard
from breaklint.dynamic.variant_mode import VariantMode
from breaklint.findings import Finding, Origin
from breaklint.progress import progress as reporting
from breaklint.source import read_source, source_lines
from breaklint.suppression import Suppressions


@dataclass(slots=True)
class DynamicResult:
    findings: list[Finding]
    probes: list[ProbeResult]
    warnings: list[str] = field(default_factory=list)
    # Every probe found, in the order a whole run reports them (a shard runs some of them).
    order: list[str] = field(default_factory=list)


def run_dynamic(
    findings: Sequence[Finding],
    linted_files: Sequence[str],
    probe_paths: Sequence[str],
    *,
    jobs: int,
    timeout_s: float,
    memory_mb: int | None,
    device: str,
    variants: VariantMode = VariantMode.GUIDED,
    variant_budget_s: float = 0.0,
    cudagraphs: bool = False,
    allowed: Callable[[str, str], bool],
    progress: bool = False,
    outputs: OutputsPlan | None = None,
    shard: Shard | None = None,
) -> DynamicResult:
    """Run every probe and join what Dynamo did with the static `findings`; with `outputs`,
    each probe also saves its eager outputs or compares them with those saved; each probe's
    call is varied as `variants` says, for at most `variant_budget_s` (0: no limit), to count
    recompilations; with `cudagraphs`, each probe is also compiled with mode="reduce-overhead"
    on CUDA to find where CUDA graphs are skipped; with `progress`, how far the run is goes to
    stderr (`breaklint.progress`); with `shard`, only the probes it holds run."""
    if importlib.util.find_spec("torch") is None:
        raise DynamicError("the dynamic phase needs torch: pip install 'breaklint[dynamic]'")
    found = find_probes(list(probe_paths))
    if found.missing:
        raise DynamicError(f"probe path '{found.missing[0]}' does not exist")
    watch = Watch(
        frozenset(os.path.realpath(path) for path in linted_files),
        frozenset(flagged_span(f) for f in findings if is_statement_finding(f)),
        variants,
        variant_budget_s,
        cudagraphs,
    )
    memory = default_memory_mb(jobs) if memory_mb is None else memory_mb
    # CUDA graphs need CUDA: a machine without it gets the worker's one-line error.
    pool = WorkerPool(jobs, timeout_s, "cuda" if cudagraphs else device, memory)
    order = [probe.key for probe in found.probes]
    probes = [p for p in found.probes if shard.holds(p)] if shard else found.probes
    with reporting(len(probes), "probes", progress) as shown:
        results = pool.run(
            probes,
            watch,
            lambda result: shown.finish(result.probe.name, result.status is not ProbeStatus.OK),
            outputs,
            lambda probe: shown.start(probe.name),
        )
    results = found.problems + results
    return DynamicResult(joined(findings, results, allowed), results, sorted(pool.warnings), order)


def joined(
    findings: Sequence[Finding], results: Sequence[ProbeResult], allowed: Callable[[str, str], bool]
) -> list[Finding]:
    """The static `findings` joined with what the probes saw, suppressions applied."""
    return _apply_suppressions(join(findings, results, allowed))


def _apply_suppressions(findings: list[Finding]) -> list[Finding]:
    """`# noqa` and `# breaklint: ignore` cover the findings Dynamo adds, as they do static ones."""
    added: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.origin is Origin.DYNAMIC:
            added.setdefault(finding.path, []).append(finding)
    kept = [f for f in findings if f.origin is not Origin.DYNAMIC]
    for path, dynamic in added.items():
        text = read_source(path)
        if isinstance(text, str) and text:
            dynamic = Suppressions(text, source_lines(text)).apply(dynamic)
        kept.extend(dynamic)
    return sorted(kept, key=Finding.sort_key)
