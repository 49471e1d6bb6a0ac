"""The processes a probe starts end with it, even those that left its process group, and the
workers end with the run.

A probe worker makes itself a child subreaper (Linux `prctl(PR_SET_CHILD_SUBREAPER)`): a
process whose parent dies, a daemon that forked twice and called `setsid()` included, is
re-parented to the worker instead of to init, so every live descendant of the worker stays in
its process tree. The worker kills the processes a probe left after each probe and when it
exits; the supervisor kills the whole tree before it kills a worker that ran past its limit,
and every worker's tree when the run is interrupted (Ctrl-C, SIGTERM). A worker also asks for
SIGKILL when its parent ends (`PR_SET_PDEATHSIG`): a supervisor killed outright does not leave
a looping probe behind. Without /proc (not Linux) only the worker's process group is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from collections.abc import Collection

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_SWEEPS = 100  # rounds of kill-then-look-again: a fork bomb still ends


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants; whether that worked."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> bool:
    """Have the kernel SIGKILL this process when the thread that started it ends; whether
    that worked."""
    return _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # not Linux
        return False


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process /proc shows."""
    parents = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    fields = handle.read().rpartition(b")")[2].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue  # it ended while we looked
    return parents


def descendants(root: int, parents: dict[int, int] | None = None) -> list[int]:
    """The processes below `root` (zombies included: they are reaped once killed), from
    `parents` (pid -> parent pid) or from /proc now."""
    children: dict[int, list[int]] = {}
    for pid, parent in (_parents() if parents is None else parents).items():
        children.setdefault(parent, []).append(pid)
    found, pending = [], list(children.get(root, []))
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return found


def kill_descendants(root: int, keep: Collection[int] = ()) -> None:
    """SIGKILL every process below `root` but those in `keep` and theirs, until none is left;
    those that are this process's children are reaped."""
    for _ in range(_SWEEPS):
        parents = _parents()
        spared = set(keep).union(*(descendants(pid, parents) for pid in keep))
        victims = [pid for pid in descendants(root, parents) if pid not in spared]
        if not victims:
            return
        for pid in victims:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if root == os.getpid():
            for pid in victims:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
