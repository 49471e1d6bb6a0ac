from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


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
    exec(compile(source, "<rule page>", "exec"), namespace)
    function, args = eval(probe, namespace)
    captured = torch_shim.capture(lambda compiled: compiled(*args), function)
    return len(captured.ops_per_graph), len(captured.breaks)
