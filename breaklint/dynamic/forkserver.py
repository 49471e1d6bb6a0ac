"""The fork server: one process imports torch once and forks every probe worker of a run.

Importing torch takes seconds of CPU; a worker forked from a process that has it imported
starts at once and shares its pages until it writes them. The server runs no probe and never
touches CUDA or torch's thread pools (forking after either is unsafe): it imports, prepares
what Dynamo imports on its first compile, then only forks and reaps.

`python -m breaklint.dynamic.forkserver` with stdin a SOCK_SEQPACKET socket to the
supervisor. Requests, one at a time, each answered:

- `fork LOG DEVICE MEMORY_MB` with two descriptors (the worker's requests to read, its
  results to write) -> `forked PID`; the worker runs `worker.serve` in a session of its own;
- `wait PID` -> `waited PID STATUS` (the raw wait status), once the worker has ended.

The server dies with the thread of the supervisor that started it, and each worker with the
server (`PR_SET_PDEATHSIG`), so a supervisor killed outright leaves no process behind.
"""

from __future__ import annotations

import contextlib
import gc
import os
import socket
import subprocess
import sys
import threading
import traceback

from breaklint.dynamic import processes

_MESSAGE_BYTES = 4096


class ForkServerGone(Exception):
    """The fork server ended (killed, or it failed to start)."""


class ForkServer:
    """The supervisor's side: starts the server, asks it for workers and their ends."""

    def __init__(self, log_path: str) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "breaklint.dynamic.forkserver"],
                stdin=theirs.fileno(),
                stdout=log,
                stderr=log,
                start_new_session=True,  # the terminal's Ctrl-C is the supervisor's to handle
            )
        theirs.close()
        self.channel = ours
        self.lock = threading.Lock()  # one request and its answer at a time
        self.statuses: dict[int, int] = {}

    def fork(self, log_path: str, device: str, memory_mb: int) -> tuple[int, int, int]:
        """A new worker: (pid, the descriptor to write its requests to, the one to read its
        results from)."""
        requests_read, requests_write = os.pipe()
        results_read, results_write = os.pipe()
        try:
            with self.lock:
                message = f"fork {memory_mb} {device} {log_path}".encode()
                try:
                    socket.send_fds(self.channel, [message], [requests_read, results_write])
                except OSError:
                    raise ForkServerGone from None
                answer = self._answer("forked")
        except BaseException:
            os.close(requests_write)
            os.close(results_read)
            raise
        finally:
            os.close(requests_read)
            os.close(results_write)
        return int(answer[1]), requests_write, results_read

    def wait(self, pid: int) -> int | None:
        """The wait status of worker `pid` once it has ended; None if the server is gone (and
        the worker with it)."""
        with self.lock:
            if pid not in self.statuses:
                try:
                    self.channel.send(f"wait {pid}".encode())
                    answer = self._answer("waited")
                except (OSError, ForkServerGone):
                    return None
                self.statuses[pid] = int(answer[2])
            status = self.statuses[pid]
            return None if status < 0 else status

    def _answer(self, kind: str) -> list[str]:
        try:
            words = self.channel.recv(_MESSAGE_BYTES).decode().split()
        except OSError:
            words = []
        if not words or words[0] != kind:
            raise ForkServerGone
        return words

    def ready(self, timeout_s: float) -> bool:
        """Wait until the server has imported torch; False if it ended first or took longer
        than `timeout_s`."""
        with self.lock:
            self.channel.settimeout(timeout_s)
            try:
                self._answer("ready")
            except ForkServerGone:
                return False
            finally:
                self.channel.settimeout(None)
            return True

    def close(self) -> None:
        """End the server (its workers end with it) and reap it."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        self.channel.close()


def _prepare() -> None:
    """Import what every worker needs; a failure shows when a worker imports it again."""
    with contextlib.suppress(Exception):
        from breaklint.dynamic import torch_shim, worker  # noqa: F401

        torch_shim.prepare_compiler()
    # Keep the imported objects out of the collector's reach: a collection in a worker would
    # otherwise write to (and so copy) every page of them.
    gc.freeze()


def _fork(channel: socket.socket, request: str, fds: list[int]) -> None:
    _, memory, device, log_path = request.split(" ", 3)
    memory_mb = int(memory)
    requests, results = fds
    server = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 1
        try:
            channel.close()
            os.setsid()  # its own process group, killed as one
            processes.die_with_parent()
            if os.getppid() != server:  # the server died before the line above
                os._exit(1)
            os.dup2(requests, 0)
            os.dup2(results, 1)
            os.close(requests)
            os.close(results)
            from breaklint.dynamic import worker

            worker.serve(log_path, device, memory_mb)
            code = 0
        except BaseException:
            traceback.print_exc()  # into the server's log, which names the failure
        finally:
            os._exit(code)
    os.close(requests)
    os.close(results)
    channel.send(f"forked {pid}".encode())


def main() -> None:
    processes.die_with_parent()
    channel = socket.socket(fileno=os.dup(0))
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)  # stdin stays taken: a worker's descriptors are never 0 or 1
    os.close(nothing)
    _prepare()
    channel.send(b"ready")
    while True:
        message, fds, _, _ = socket.recv_fds(channel, _MESSAGE_BYTES, 2)
        request = message.decode()
        if not request:
            return  # the supervisor closed its end
        if request.startswith("fork ") and len(fds) == 2:
            _fork(channel, request, fds)
        elif request.startswith("wait "):
            pid = int(request.split()[1])
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:  # not one of ours
                status = -1
            channel.send(f"waited {pid} {status}".encode())
        else:
            for descriptor in fds:
                os.close(descriptor)


if __name__ == "__main__":
    main()
