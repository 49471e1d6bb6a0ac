"""Progress on stderr: a bar on a terminal (tested under a pseudo-terminal), plain lines in a
log, nothing with --quiet, and never a byte of it on stdout, where the report is."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from breaklint.progress import LINE_PREFIX, progress
from conftest import run_breaklint

MODEL = """
    import torch


    class Twice(torch.nn.Module):
        def forward(self, x):
            return x * 2
"""
PROBES = """
    import torch

    from model import Twice


    def probe_twice():
        return Twice(), (torch.ones(2),)


    def probe_raises():
        raise ValueError("no model today")
"""


def test_plain_lines_count_done_failed_and_running_and_end_with_a_last_line():
    log = io.StringIO()
    with progress(3, "probes", True, log, interval_s=0) as shown:
        shown.start("probe_a")
        shown.finish("probe_a", failed=False)
        shown.start("probe_b")
        shown.start("probe_c")
        shown.finish("probe_b", failed=True)
        shown.finish("probe_c", failed=False)
    assert log.getvalue().splitlines() == [
        f"{LINE_PREFIX}0/3 probes done, 0s elapsed; running probe_a",
        f"{LINE_PREFIX}1/3 probes done, 0s elapsed",
        f"{LINE_PREFIX}1/3 probes done, 0s elapsed; running probe_b",
        f"{LINE_PREFIX}1/3 probes done, 0s elapsed; running probe_b, probe_c",
        f"{LINE_PREFIX}2/3 probes done, 1 failed, 0s elapsed; running probe_c",
        f"{LINE_PREFIX}3/3 probes done, 1 failed, 0s elapsed",
    ]
    # A run whose last line was written before its end gets one more, with the end.
    log = io.StringIO()
    with progress(2, "models", True, log, interval_s=0) as shown:
        shown.start("gpt2")
        shown.finish("gpt2", failed=False)
        shown.interval_s = 3600  # type: ignore[attr-defined]
        shown.start("bert")
        shown.finish("bert", failed=False)
    assert log.getvalue().splitlines()[-1] == f"{LINE_PREFIX}2/2 models done, 0s elapsed"


def test_a_long_item_gets_lines_while_it_runs():
    log = io.StringIO()
    with progress(1, "probes", True, log, interval_s=0.05) as shown:
        shown.start("probe_slow")
        waited = 0.0
        while log.getvalue().count("\n") < 2 and waited < 60:
            time.sleep(0.05)
            waited += 0.05
        shown.finish("probe_slow", failed=False)
    lines = log.getvalue().splitlines()
    assert lines[0].startswith(f"{LINE_PREFIX}0/1 probes done, ")
    assert lines[1].startswith(f"{LINE_PREFIX}0/1 probes done, ")
    assert lines[1].endswith("; running probe_slow")
    assert lines[-1].startswith(f"{LINE_PREFIX}1/1 probes done, ")


def test_a_short_run_or_a_quiet_one_writes_no_line():
    for enabled, interval in ((True, 3600.0), (False, 0.0)):
        log = io.StringIO()
        with progress(1, "probes", enabled, log, interval_s=interval) as shown:
            shown.start("probe_a")
            shown.finish("probe_a", failed=False)
        assert log.getvalue() == ""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL), encoding="utf-8")
    (tmp_path / "probes.py").write_text(textwrap.dedent(PROBES), encoding="utf-8")
    return tmp_path


def _under_terminal(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal and stdout on a pipe: (exit code, stdout,
    what the terminal got)."""
    main, terminal = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "120"})
    process = subprocess.Popen(
        [sys.executable, "-m", "breaklint", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env,
    )
    os.close(terminal)
    screen = bytearray()
    while True:  # drain the terminal as it is written, or a full buffer would block the run
        ready, _, _ = select.select([main], [], [], 300)
        if not ready:
            process.kill()
            raise AssertionError(f"no output for 300 s; so far: {bytes(screen)!r}")
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    assert process.stdout is not None
    out = process.stdout.read()
    os.close(main)
    return process.wait(timeout=60), out, bytes(screen)


def test_a_terminal_gets_a_bar_and_redirected_stdout_only_the_report(project: Path):
    pytest.importorskip("torch", reason="the probes run under Dynamo")
    args = ["model.py", "--probes", "probes.py", "--no-cache", "--jobs", "1"]
    args += ["--output-format", "concise"]
    code, out, screen = _under_terminal(args, project)
    assert code == 1, screen
    # The bar: its noun, done / total at the end, the failure so far, the elapsed time.
    assert b"probes" in screen and b"2/2" in screen and b"1 failed" in screen, screen
    assert b"0:00:" in screen, screen
    assert b"\x1b[" in screen  # drawn with terminal control sequences
    # stdout is the very report a run without a terminal writes, and no progress.
    plain = run_breaklint(*args, cwd=project)
    assert plain.returncode == 1
    assert out.decode() == plain.stdout
    assert out.decode().splitlines() == [
        "probes.py:11:1: BL902 [error] probe probe_raises error: ValueError: no model today"
    ]
    # Its stderr, not a terminal, gets plain lines (a run under LINE_INTERVAL_S, none), the
    # last of which tells the end.
    lines = [line for line in plain.stderr.splitlines() if line.startswith(LINE_PREFIX)]
    assert "\x1b[" not in plain.stderr
    assert not lines or lines[-1].startswith(f"{LINE_PREFIX}2/2 probes done, 1 failed, "), lines
    quiet_code, _, quiet_screen = _under_terminal([*args, "--quiet"], project)
    assert quiet_code == 1
    assert b"2/2" not in quiet_screen and b"probes" not in quiet_screen, quiet_screen
