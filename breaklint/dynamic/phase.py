"""The dynamic phase end to end: find probes, run them in workers, join with static findings."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from breaklint.dynamic.join import flagged_span, is_statement_finding, join
from breaklint.dynamic.model import OutputsPlan, Probe, ProbeResult, VariantMode, Watch
from breaklint.dynamic.pool import DynamicError, WorkerPool, default_memory_mb
from breaklint.dynamic.probes import find_probes
from breaklint.findings import Finding, Origin
from breaklint.source import read_source, source_lines
from breaklint.suppression import Suppressions


@dataclass(slots=True)
class DynamicResult:
    findings: list[Finding]
    probes: list[ProbeResult]
    warnings: list[str] = field(default_factory=list)


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
    allowed: Callable[[str, str], bool],
    progress: bool = False,
    outputs: OutputsPlan | None = None,
) -> DynamicResult:
    """Run every probe and join what Dynamo did with the static `findings`; with `outputs`,
    each probe also saves its eager outputs or compares them with those saved; each probe's
    call is varied as `variants` says, for at most `variant_budget_s` (0: no limit), to count
    recompilations."""
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
    )
    memory = default_memory_mb(jobs) if memory_mb is None else memory_mb
    pool = WorkerPool(jobs, timeout_s, device, memory)
    if progress and found.probes:
        results = _with_progress(pool, found.probes, watch, outputs)
    else:
        results = pool.run(found.probes, watch, outputs=outputs)
    results = found.problems + results
    joined = _apply_suppressions(join(findings, results, allowed))
    return DynamicResult(joined, results, sorted(pool.warnings))


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


def _with_progress(
    pool: WorkerPool, probes: list[Probe], watch: Watch, outputs: OutputsPlan | None
) -> list[ProbeResult]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=Console(file=sys.stderr)) as bar:
        task = bar.add_task("probes", total=len(probes))

        def advance(result: ProbeResult) -> None:
            bar.update(task, advance=1, description=result.probe.name)

        return pool.run(probes, watch, advance, outputs)
