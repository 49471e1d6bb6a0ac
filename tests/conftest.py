from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# The smallest model a probe can compile: one graph, no break (model.py of probe tests).
DOUBLE_MODEL = """
import torch


class Double(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""

# A corpus line ends in `# KIND CODE...`: BREAK where Dynamo breaks the graph, SKIP where it
# skips the whole frame, HOOK where a hook whose body breaks is registered, LIBRARY where a call
# reaches an installed library (tests/libraries) that breaks inside, RECOMPILE where a guard
# fails on every new value of the probe's calls; the codes are the rules that flag the line
# (BL900 for a break no static rule predicts). A line may hold several: `# BREAK BL201
# RECOMPILE BL910`.
_KINDS = "BREAK|SKIP|HOOK|LIBRARY|RECOMPILE"
# The installed libraries the corpora call: on the PYTHONPATH of the runs that lint them.
LIBRARIES = Path(__file__).parent / "libraries"
_MARKER = re.compile(rf"#\s*((?:(?:{_KINDS})(?:\s+BL\d{{3}})+\s*)+)$")
_ONE_MARKER = re.compile(rf"({_KINDS})((?:\s+BL\d{{3}})+)")
_BARE_MARKER = re.compile(rf"#\s*({_KINDS})\s*$")


@dataclass(frozen=True)
class Marker:
    """One rule code marked on one corpus line."""

    file: str
    line: int
    code: str
    kind: str


def corpus_markers(paths: Iterable[Path]) -> set[Marker]:
    """Every (file, line, code, kind) marked in the given corpus files; a marker without a
    code is an error, so no expectation is silently dropped."""
    marked = set()
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, text in enumerate(lines, 1):
            if match := _MARKER.search(text):
                for kind, codes in _ONE_MARKER.findall(match.group(1)):
                    marked |= {Marker(path.name, number, code, kind) for code in codes.split()}
            else:
                assert not _BARE_MARKER.search(text), f"{path.name}:{number}: marker lacks a code"
    return marked


def corpus_line(path: Path, snippet: str) -> int:
    """The number of the one line of `path` that contains `snippet`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [number for number, text in enumerate(lines, 1) if snippet in text]
    assert len(found) == 1, f"{snippet!r} is on lines {found} of {path.name}, not on one"
    return found[0]


def probe_names(path: Path) -> list[str]:
    """The probe functions a probe file defines, in order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("probe_")
    ]


@pytest.fixture
def installed_library(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The installed library a rule's example calls (`Rule.example_library`), on `sys.path`
    as a user's site-packages is: the lint finds it there, and Dynamo imports it. For tests
    parametrized by `rule`."""
    rule = request.node.callspec.params.get("rule") if hasattr(request.node, "callspec") else None
    if rule is None or not rule.example_library:
        return
    site = tmp_path_factory.mktemp("site")
    for name, text in rule.example_library.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text.strip() + "\n", encoding="utf-8")
    request.getfixturevalue("monkeypatch").syspath_prepend(str(site))


def with_libraries() -> dict[str, str]:
    """An environment whose `PYTHONPATH` holds the installed libraries the corpora call."""
    paths = [str(LIBRARIES), os.environ.get("PYTHONPATH", "")]
    return {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def run_breaklint(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess, as a user or CI would."""
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "breaklint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )


@pytest.fixture
def breaklint(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`breaklint(*args)` runs the CLI with the test's tmp_path as working directory."""

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return run_breaklint(*args, cwd=tmp_path, env=env)

    return run


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """`write("pkg/mod.py", source)` creates a dedented file under tmp_path."""

    def create(relative: str, source: str) -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    return create


def compile_and_count(source: str, probe: str) -> tuple[int, int]:
    """(graphs recorded, graph breaks seen) when Dynamo compiles the probed callable, read
    through the shim the dynamic phase uses."""
    pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(source, "<rule page>", "exec", dont_inherit=True), namespace)
    function, args = eval(probe, namespace)
    captured = torch_shim.capture(lambda compiled: compiled(*args), function)
    return len(captured.ops_per_graph), len(captured.breaks)


@dataclass(frozen=True)
class Compiles:
    """How often Dynamo compiled a probed callable over a list of calls."""

    compiles: int  # frames compiled (one per call that recompiles)
    calls: int


def compile_over_calls(source: str, probe: str) -> Compiles:
    """Compile the callable of `probe` (an expression returning (callable, [args, ...])) once
    with a recording backend and call it with each args tuple, counting compilations through
    the shim the dynamic phase uses."""
    pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
    from breaklint.dynamic import torch_shim

    namespace: dict = {}
    exec(compile(source, "<rule page>", "exec", dont_inherit=True), namespace)
    function, calls = eval(probe, namespace)
    captured = torch_shim.capture(
        lambda compiled: None, function, then=lambda c, guards: [c(*args) for args in calls]
    )
    assert captured.compiles is not None
    return Compiles(captured.compiles.compiles, len(calls))
