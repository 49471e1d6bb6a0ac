"""Keep a model graph-clean from a test suite: `assert_graph_clean(model, *args)`.

It compiles the model in the calling process (which has imported torch already) with
breaklint's recording backend, never inductor, so it costs a trace and no code generation.
When Dynamo breaks the graph more than `max_breaks` times, it lints the files the breaks are
in, joins the static findings with the breaks as the dynamic phase does, and raises an
AssertionError whose text is breaklint's report. Dynamo's config, counters and metrics are left
as they were found.
"""

from __future__ import annotations

import inspect
import io
import os
import time
import unittest
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from breaklint.findings import Finding, Status

if TYPE_CHECKING:
    from breaklint.dynamic.model import Probe


@dataclass(frozen=True, slots=True)
class GraphReport:
    """What one compiled call did: its graphs, its breaks and the findings that explain them."""

    target: str  # the module's class or the function's qualified name
    graphs: int
    breaks: int  # graph breaks and skipped frames, each place once
    findings: tuple[Finding, ...]  # confirmed static findings, and the breaks no rule predicted

    def text(self, max_breaks: int) -> str:
        """breaklint's report: one entry per finding, as the `full` format shows it."""
        from breaklint.render import write_findings

        out = io.StringIO()
        write_findings(self.findings, out)
        noun = "graph break" if self.breaks == 1 else "graph breaks"
        graphs = "graph" if self.graphs == 1 else "graphs"
        header = (
            f"breaklint: {self.target} compiled to {self.graphs} {graphs} with {self.breaks} "
            f"{noun} (max_breaks={max_breaks})"
        )
        return f"{header}\n\n{out.getvalue().rstrip()}\n"


def assert_graph_clean(
    module_or_fn: Callable[..., Any], *args: Any, max_breaks: int = 0, **kwargs: Any
) -> GraphReport:
    """Call `module_or_fn(*args, **kwargs)` compiled and fail when Dynamo breaks the graph
    more than `max_breaks` times (graph breaks and skipped frames, each place once). Returns
    the report when it passes; raises unittest.SkipTest (a skip under pytest and unittest)
    when torch is not installed."""
    report = graph_report(module_or_fn, *args, **kwargs)
    if report.breaks > max_breaks:
        raise AssertionError(report.text(max_breaks))
    return report


def graph_report(module_or_fn: Callable[..., Any], *args: Any, **kwargs: Any) -> GraphReport:
    """What Dynamo does on `module_or_fn(*args, **kwargs)`, explained by breaklint's rules."""
    try:
        import torch  # noqa: F401  (the capture below needs it; a clear skip when missing)
    except ImportError:
        raise unittest.SkipTest("assert_graph_clean needs torch: pip install torch") from None
    from breaklint.dynamic import torch_shim
    from breaklint.dynamic.join import join
    from breaklint.dynamic.model import ProbeRequest, Watch
    from breaklint.dynamic.worker import Compiling, observe
    from breaklint.source import display_path

    started = time.perf_counter()
    probe = _probe(module_or_fn)
    # No linted tree: each break is placed at its innermost frame outside torch and breaklint.
    request = ProbeRequest(probe, Watch(frozenset()))
    with torch_shim.state_kept():
        # The caller's own object: a knob's rerun sees it as the first call left it.
        compiling = Compiling(module_or_fn, lambda compiled: compiled(*args, **kwargs))
        observed = observe(lambda: compiling, request)
    result = observed.result(probe, time.perf_counter() - started)
    files = sorted({display_path(b.path) for b in observed.breaks if os.path.isfile(b.path)})
    joined = join(_static_findings(files), [result], lambda code, path: True)
    return GraphReport(
        target=probe.name,
        graphs=result.graphs,
        breaks=len(observed.breaks),
        findings=tuple(f for f in joined if f.status is Status.CONFIRMED),
    )


def _static_findings(files: list[str]) -> list[Finding]:
    """Every rule on the files Dynamo broke in, in this process and without the cache (a test
    run must not write into the project). Every function there counts as compiled code: the
    test compiled it."""
    if not files:
        return []
    from breaklint.config import Settings
    from breaklint.engine import lint_paths

    return lint_paths(files, Settings(scope="all"), jobs=1, use_cache=False).findings


def _probe(module_or_fn: Callable[..., Any]) -> Probe:
    """The call as the dynamic phase names a probe: where the target is defined, and its name."""
    from breaklint.dynamic.model import Probe
    from breaklint.source import display_path

    defined = module_or_fn if inspect.isroutine(module_or_fn) else type(module_or_fn)
    name = getattr(defined, "__qualname__", type(module_or_fn).__name__)
    try:
        path = display_path(inspect.getsourcefile(defined) or "<unknown>")
        line = inspect.getsourcelines(defined)[1]
    except (OSError, TypeError):  # defined in C or in an interactive session
        path, line = "<unknown>", 0
    return Probe(path, name, line)
