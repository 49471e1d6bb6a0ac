"""No process of a run outlives it, however the run ends: normally, on Ctrl-C, on SIGTERM, or
with a probe that loops past its time limit; the probes start daemons that leave their process
group (`setsid()`) and whose parent exits (a double fork). Every process of a run carries a
marker in its environment, and /proc is searched for it once the run has ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import DOUBLE_MODEL, run_breaklint

pytest.importorskip(
    "torch", reason="the dynamic phase runs Dynamo: pip install 'breaklint[dynamic]'"
)
if not os.path.isdir("/proc/self"):
    pytest.skip("processes are found through /proc", allow_module_level=True)

MARKER = "BREAKLINT_TEST_RUN"


HEADER = """
import os
import subprocess
import sys
import time

import torch
from model import Double

# A child that calls setsid() and forks a grandchild, then exits: the grandchild, in a session
# of its own, has lost its parent.
DAEMON = '''
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
'''
"""

PROBES = {
    "daemon.py": """

def probe_leaves_a_daemon():
    subprocess.run([sys.executable, "-c", DAEMON], check=True, timeout=60)
    return Double(), (torch.randn(4),)
""",
    "loops.py": """

def probe_loops():
    subprocess.run([sys.executable, "-c", DAEMON], check=True, timeout=60)
    with open("looping", "w") as handle:
        handle.write("")
    while True:
        time.sleep(0.05)
""",
    "spins.py": """

def probe_spins():
    with open("looping", "w") as handle:
        handle.write("")
    while True:
        time.sleep(0.05)
""",
}


def _marked(run: str) -> list[int]:
    """The live processes (not zombies) whose environment holds the run's marker."""
    found = []
    needle = f"{MARKER}={run}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if needle not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rpartition(b")")[2].split()[0]
        except OSError:
            continue  # ended while we looked, or not ours to read
        if state not in (b"Z", b"X"):
            found.append(int(entry))
    return found


def _left_behind(run: str) -> list[int]:
    """The marked processes still alive after a second, killed so that the tests leave none."""
    deadline = time.monotonic() + 1
    while (left := _marked(run)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(DOUBLE_MODEL.lstrip(), encoding="utf-8")
    for name, probes in PROBES.items():
        (tmp_path / name).write_text(HEADER.lstrip() + probes, encoding="utf-8")
    return tmp_path


def _command(probes: str) -> list[str]:
    options = ("--probes", probes, "--jobs", "1", "--no-cache", "--no-variants")
    return [sys.executable, "-m", "breaklint", "model.py", *options]


def test_a_run_that_ends_normally_leaves_no_process(folder: Path) -> None:
    run = uuid.uuid4().hex
    done = run_breaklint(*_command("daemon.py")[3:], cwd=folder, env={MARKER: run})
    assert done.returncode == 0, done.stderr
    assert _left_behind(run) == []


def test_a_looping_probe_past_its_limit_leaves_no_process(folder: Path) -> None:
    run = uuid.uuid4().hex
    command = [*_command("loops.py")[3:], "--probe-timeout", "20", "--output-format", "json"]
    done = run_breaklint(*command, cwd=folder, env={MARKER: run})
    assert '"status": "timeout"' in done.stdout, done.stderr
    assert _left_behind(run) == []


@pytest.mark.parametrize(
    ("ending", "probes", "exit_code"),
    [
        ("ctrl-c", "loops.py", 130),
        ("sigterm", "loops.py", 128 + signal.SIGTERM),
        # Killed outright, breaklint ends nothing itself: its fork server ends (its channel
        # closed, or the parent-death signal), and the kernel kills the workers with it (a
        # daemon a probe started would outlive them, as SECURITY.md says).
        ("sigkill", "spins.py", -signal.SIGKILL),
    ],
)
def test_a_run_interrupted_in_a_looping_probe_leaves_no_process(
    folder: Path, ending: str, probes: str, exit_code: int
) -> None:
    run = uuid.uuid4().hex
    environment = {**os.environ, MARKER: run}
    process = subprocess.Popen(
        _command(probes),
        cwd=folder,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a terminal of its own: Ctrl-C reaches its process group
    )
    try:
        deadline = time.monotonic() + 120
        while not (folder / "looping").exists():
            assert process.poll() is None and time.monotonic() < deadline, "the probe never ran"
            time.sleep(0.1)
        if ending == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)  # what the terminal sends its foreground group
        else:
            process.send_signal(signal.SIGTERM if ending == "sigterm" else signal.SIGKILL)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == exit_code, stderr
    assert b"Traceback" not in stderr, stderr
    assert _left_behind(run) == []
