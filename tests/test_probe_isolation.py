"""Probes cannot reach each other: each starts from the same process state, a probe past
`--probe-memory` is reported as such, and a crashed probe's report holds only its own output."""

from __future__ import annotations

import json
import os
import signal

import pytest

from conftest import DOUBLE_MODEL, run_breaklint

pytest.importorskip(
    "torch", reason="the dynamic phase runs Dynamo: pip install 'breaklint[dynamic]'"
)


# Run first, in the same worker as the probes of SECOND: everything it changes must be undone.
FIRST = """
import os
import signal
import subprocess
import sys

import torch
from model import Double

# Forks a child that leaves the process group (setsid) and sleeps, and exits once the child
# wrote its pid: the child is an orphan that nobody waits for.
DAEMON = '''
import os, sys, time
if os.fork() == 0:
    os.setsid()
    with open(sys.argv[1] + ".tmp", "w") as handle:
        handle.write(str(os.getpid()))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(600)
else:
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.01)
'''


def probe_prints():
    print("OUTPUT OF THE FIRST PROBE", flush=True)
    return Double(), (torch.randn(4),)


def probe_changes_everything():
    os.chdir("/")
    sys.path.insert(0, "/nowhere/breaklint-probe")
    os.environ["BREAKLINT_PROBE_LEAK"] = "1"
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch._dynamo.config.capture_scalar_outputs = True
    return Double(), (torch.randn(4),)


def probe_sets_alarms_and_handlers():
    def fail(number, frame):
        raise RuntimeError("an alarm of the previous probe")

    signal.signal(signal.SIGALRM, fail)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    signal.alarm(2)
    signal.setitimer(signal.ITIMER_VIRTUAL, 30)
    return Double(), (torch.randn(4),)


def probe_leaves_a_daemon():
    subprocess.run([sys.executable, "-c", DAEMON, {daemon!r}], check=True, timeout=60)
    return Double(), (torch.randn(4),)
"""

SECOND = """
import os
import signal
import sys
import time

import torch
from model import Double


def probe_sees_a_fresh_process():
    time.sleep(2.5)  # past the alarm the first probes set
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert signal.SIGUSR1 not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.alarm(0) == 0
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
    assert os.getcwd() == {cwd!r}, os.getcwd()
    assert "/nowhere/breaklint-probe" not in sys.path
    assert "BREAKLINT_PROBE_LEAK" not in os.environ
    assert torch.get_default_dtype() is torch.float32
    assert torch.is_grad_enabled()
    assert not torch._dynamo.config.capture_scalar_outputs
    return Double(), (torch.randn(4),)


def probe_writes_into_every_descriptor():
    for name in os.listdir("/proc/self/fd"):
        try:
            os.write(int(name), b"garbage from a probe" * 64)
        except OSError:
            pass
    return Double(), (torch.randn(4),)


def probe_after_the_garbage():
    return Double(), (torch.randn(4),)


def probe_crashes():
    print("OUTPUT OF THE CRASHING PROBE", flush=True)
    os._exit(3)


def probe_allocates_without_end():
    tensors = []
    while True:
        tensors.append(torch.ones(2**25))


def probe_after_the_memory_hog():
    return Double(), (torch.randn(4),)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("isolation")
    (folder / "model.py").write_text(DOUBLE_MODEL.lstrip(), encoding="utf-8")
    daemon = folder / "daemon.pid"
    (folder / "first.py").write_text(FIRST.format(daemon=str(daemon)).lstrip(), encoding="utf-8")
    (folder / "second.py").write_text(SECOND.format(cwd=str(folder)).lstrip(), encoding="utf-8")
    done = run_breaklint(
        "model.py",
        *("--probes", "first.py", "--probes", "second.py", "--jobs", "1"),
        *("--probe-memory", "3000", "--output-format", "json", "--no-cache"),
        cwd=folder,
    )
    daemon_pid = int(daemon.read_text(encoding="utf-8"))
    alive = _alive(daemon_pid)
    if alive:
        os.kill(daemon_pid, signal.SIGKILL)
    assert "Traceback" not in done.stderr, done.stderr
    probes = {probe["name"]: probe for probe in json.loads(done.stdout)["probes"]}
    return {**probes, "daemon alive after the run": alive}


def _alive(pid: int) -> bool:
    """Whether `pid` still runs (a zombie has ended: only its exit status waits for a reaper)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_each_probe_starts_from_the_same_process_state(report: dict) -> None:
    assert report["probe_changes_everything"]["status"] == "ok"
    fresh = report["probe_sees_a_fresh_process"]
    assert (fresh["status"], fresh["error"]) == ("ok", None)


def test_a_crashed_probe_reports_only_its_own_output(report: dict) -> None:
    crashed = report["probe_crashes"]
    assert (crashed["status"], crashed["error"]) == ("crashed", "worker exited with status 3")
    assert "OUTPUT OF THE CRASHING PROBE" in crashed["traceback"]
    assert "OUTPUT OF THE FIRST PROBE" not in crashed["traceback"]


def test_a_probe_past_the_memory_limit_has_its_own_status(report: dict) -> None:
    hog = report["probe_allocates_without_end"]
    assert hog["status"] == "out-of-memory"
    assert hog["error"].startswith("ran past the 3000 MB limit (--probe-memory): ")
    assert report["probe_after_the_memory_hog"]["status"] == "ok"


def test_signal_handlers_alarms_and_timers_do_not_reach_the_next_probe(report: dict) -> None:
    assert report["probe_sets_alarms_and_handlers"]["status"] == "ok"
    fresh = report["probe_sees_a_fresh_process"]
    assert (fresh["status"], fresh["error"]) == ("ok", None)


def test_a_daemon_a_probe_started_ends_with_it(report: dict) -> None:
    assert report["probe_leaves_a_daemon"]["status"] == "ok"
    assert report["daemon alive after the run"] is False


def test_bytes_a_probe_writes_into_the_channel_fail_only_that_probe(report: dict) -> None:
    garbage = report["probe_writes_into_every_descriptor"]
    assert garbage["status"] == "crashed"
    assert garbage["error"].startswith("wrote into breaklint's result channel (")
    assert garbage["error"].endswith("); its worker was replaced")
    assert report["probe_after_the_garbage"]["status"] == "ok"


def test_one_worker_is_not_given_all_of_the_machines_memory() -> None:
    """The default --probe-memory, as documented: three quarters of the machine's memory,
    divided among the workers."""
    from breaklint.dynamic.pool import default_memory_mb

    total_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    assert abs(default_memory_mb(1) - total_mb * 3 / 4) <= 1
    assert abs(default_memory_mb(4) - total_mb * 3 / 16) <= 1
