"""`breaklint graph TARGET`: a probe's captured graphs, their editability and the `--wrap`
checks, as `graph_view` shows them."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from breaklint.config import ConfigError
from breaklint.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, error
from breaklint.progress import progress

if TYPE_CHECKING:
    from breaklint.dynamic.model import Probe


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
    quiet: bool = False  # no progress on stderr


def graph(request: GraphCommand) -> int:
    """`breaklint graph`: the captured graphs of each probe, its editability and the `--wrap`
    checks; 0 when every probe is editable and every wrap held, 1 otherwise."""
    from breaklint.dynamic.model import GraphRequest, ProbeStatus
    from breaklint.dynamic.pool import DynamicError, WorkerPool, default_memory_mb
    from breaklint.graph_view import backend_source, judge, to_json, write_full

    try:
        probes = _graph_probes(request)
        pool = WorkerPool(1, request.probe_timeout, request.device, default_memory_mb(1))
        with progress(len(probes), "probes", not request.quiet) as shown:
            results = pool.run_graphs(
                [GraphRequest(probe, request.wraps) for probe in probes],
                lambda probe: shown.start(probe.name),
                lambda result: shown.finish(result.probe.name, result.status is not ProbeStatus.OK),
            )
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


def _graph_probes(request: GraphCommand) -> list[Probe]:
    """The probes TARGET names; ConfigError with a one-line reason when it names none."""
    import difflib
    import importlib.util

    from breaklint.dynamic.probes import find_probes

    if not request.probe_timeout > 0:  # NaN too
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
