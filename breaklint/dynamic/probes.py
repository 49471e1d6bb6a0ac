"""Find probes without importing anything: `def probe_*()` at module level of probe files."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from breaklint.dynamic.model import Probe, ProbeResult, ProbeStatus
from breaklint.probe_roots import PREFIX, probe_files
from breaklint.source import read_regular


@dataclass(slots=True)
class ProbeSet:
    probes: list[Probe] = field(default_factory=list)
    problems: list[ProbeResult] = field(default_factory=list)  # files that cannot be probed
    missing: list[str] = field(default_factory=list)


def _problem(path: str, line: int, message: str, name: str = "<file>") -> ProbeResult:
    return ProbeResult(Probe(path, name, line), ProbeStatus.ERROR, 0.0, error=message)


def _scan(path: str, explicit: bool, found: ProbeSet) -> None:
    try:
        tree = ast.parse(read_regular(path), filename=path)
    except SyntaxError as error:
        found.problems.append(_problem(path, error.lineno or 1, f"SyntaxError: {error.msg}"))
        return
    except (OSError, ValueError) as error:
        found.problems.append(_problem(path, 1, f"cannot read probe file: {error}"))
        return
    functions = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(PREFIX)
    ]
    for node in functions:
        arguments = node.args
        takes = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
        if isinstance(node, ast.AsyncFunctionDef):
            message = f"{node.name} must not be async"
            found.problems.append(_problem(path, node.lineno, message, node.name))
        elif takes or arguments.vararg or arguments.kwarg:
            message = f"{node.name} takes parameters; a probe takes none"
            found.problems.append(_problem(path, node.lineno, message, node.name))
        else:
            found.probes.append(Probe(path, node.name, node.lineno))
    if explicit and not functions:
        found.problems.append(_problem(path, 1, f"no {PREFIX}* function in this probe file"))


def find_probes(paths: list[str]) -> ProbeSet:
    """Probe files named explicitly, and every .py file under probe folders."""
    found = ProbeSet()
    files, found.missing = probe_files(paths)
    for path, explicit in files:
        _scan(path, explicit, found)
    return found
