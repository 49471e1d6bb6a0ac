"""The supervisor: a pool of worker subprocesses with per-probe time limits.

Each pool slot is a thread that owns one worker, forked by the run's fork server (which
imports torch once for all of them). A worker that runs past the limit is killed (its whole
process tree) and a worker that dies is replaced; the probe gets `timeout` or `crashed` and
the other probes go on. POSIX only (select on pipes, process groups, descriptors passed over
a Unix socket).
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from breaklint.dynamic.forkserver import ForkServer, ForkServerGone
from breaklint.dynamic.model import (
    GraphRequest,
    GraphResult,
    Message,
    OutputsPlan,
    Probe,
    ProbeRequest,
    ProbeResult,
    ProbeStatus,
    Watch,
    WorkerFailed,
    WorkerReady,
)
from breaklint.dynamic.processes import kill_descendants
from breaklint.dynamic.protocol import CorruptFrame, new_key, receive, send, write_all

_START_TIMEOUT_S = 300.0  # importing torch: about 5 s on a quiet machine, far more when loaded
_LOG_TAIL = 2000
_SERVER_LOG = "forkserver.log"


# The share of the machine's memory the probe workers may take together: the rest is left to
# the system and the run itself, so that even one worker cannot exhaust the machine.
MEMORY_SHARE = 0.75


def default_memory_mb(jobs: int) -> int:
    """MEMORY_SHARE of the machine's memory shared among the workers."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0  # unknown here: no limit
    return max(1, int(total * MEMORY_SHARE) // 2**20 // max(1, jobs))


class DynamicError(Exception):
    """The dynamic phase cannot run at all (no CUDA for --device cuda, torch missing)."""


class _Worker:
    def __init__(self, server: ForkServer, device: str, log_dir: str, memory_mb: int) -> None:
        handle, self.log_path = tempfile.mkstemp(prefix="worker-", suffix=".log", dir=log_dir)
        os.close(handle)
        self.server = server
        self.pid, self.requests, self.results = server.fork(self.log_path, device, memory_mb)
        self.status: int | None = None  # its wait status, once it has ended and been reaped
        self.key = new_key()  # the worker's frames are checked against it
        with contextlib.suppress(BrokenPipeError):  # a worker that died says so in `wait`
            write_all(self.requests, self.key)

    def send(self, request: ProbeRequest | GraphRequest) -> None:
        send(self.requests, self.key, request)

    def wait(self, timeout_s: float) -> Message:
        """The next message within `timeout_s`; TimeoutError, EOFError or CorruptFrame."""
        return receive(self.results, self.key, timeout_s)

    def log_size(self) -> int:
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def log_tail(self, start: int = 0) -> str:
        """The end of what the worker logged from byte `start` on: a crashed probe's report
        holds its own output, not that of the probes the worker ran before it."""
        try:
            with open(self.log_path, "rb") as handle:
                handle.seek(start)
                logged = handle.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return logged[-_LOG_TAIL:].strip()

    def death(self) -> str:
        """How the worker ended, once its results channel closed. It is ended first: a worker
        that closed the channel and runs on would otherwise hold up the fork server, which
        waits for it (a worker that has exited keeps the status it exited with)."""
        self.end()
        status = self.status
        if status is None:
            return "worker ended with its fork server"
        code = os.waitstatus_to_exitcode(status)
        if code < 0:
            return f"worker killed by signal {signal.Signals(-code).name}"
        return f"worker exited with status {code}"

    def reaped(self) -> int | None:
        """Wait for the worker to end; its wait status (None: the fork server is gone)."""
        if self.status is None:
            self.status = self.server.wait(self.pid)
        return self.status

    def kill(self) -> None:
        """End the worker's processes, then close its pipes."""
        self.end()
        for descriptor in (self.requests, self.results):
            with contextlib.suppress(OSError):
                os.close(descriptor)

    def end(self) -> None:
        """Kill the worker, its process group and every process below it: those that left
        the group (`setsid()`) are still below the worker, a subreaper, while it lives. Its
        pipes stay open: another thread may be reading them. A worker already reaped is left
        alone: its pid may be another process's now."""
        if self.status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGSTOP)  # it forks and reaps no more
            kill_descendants(self.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
        self.reaped()


class _Slot:
    """One thread, one worker at a time; replaces it after a timeout or a crash."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.worker: _Worker | None = None

    def start_worker(self) -> _Worker:
        server = self.pool.server
        assert server is not None  # slots run only inside the pool's `_forking`
        try:
            worker = _Worker(server, self.pool.device, self.pool.log_dir, self.pool.memory_mb)
        except ForkServerGone:
            raise DynamicError(
                f"the fork server of the probe workers ended: {self.pool.server_log()}"
            ) from None
        try:
            message = worker.wait(_START_TIMEOUT_S)
        except (TimeoutError, EOFError, CorruptFrame):
            worker.kill()
            raise DynamicError(f"a probe worker failed to start: {worker.log_tail()}") from None
        if isinstance(message, WorkerFailed):
            worker.kill()
            raise DynamicError(message.error)
        assert isinstance(message, WorkerReady), message
        self.pool.resolved_device = message.device
        if message.warning:
            self.pool.warnings.add(message.warning)
        return worker

    @overload
    def run(self, request: ProbeRequest) -> ProbeResult: ...

    @overload
    def run(self, request: GraphRequest) -> GraphResult: ...

    def run(self, request: ProbeRequest | GraphRequest) -> ProbeResult | GraphResult:
        if self.worker is None:
            self.worker = self.start_worker()
        worker = self.worker
        started = time.perf_counter()
        logged_before = worker.log_size()
        try:
            worker.send(request)
            result = worker.wait(self.pool.timeout_s)
            assert isinstance(result, ProbeResult | GraphResult), result
            if result.status is ProbeStatus.OUT_OF_MEMORY:
                # Its heap may stay full or fragmented: the next probe gets a fresh worker.
                worker.kill()
                self.worker = None
            return result
        except TimeoutError:
            worker.kill()
            self.worker = None
            elapsed = time.perf_counter() - started
            error = f"ran past the {self.pool.timeout_s:g} s limit (--probe-timeout); killed"
            return _failed(request)(request.probe, ProbeStatus.TIMEOUT, elapsed, error=error)
        except CorruptFrame as corrupt:
            worker.kill()
            self.worker = None
            elapsed = time.perf_counter() - started
            error = f"wrote into breaklint's result channel ({corrupt}); its worker was replaced"
            return _failed(request)(request.probe, ProbeStatus.CRASHED, elapsed, error=error)
        except (EOFError, BrokenPipeError):
            error = worker.death()
            tail = worker.log_tail(logged_before)
            worker.kill()
            self.worker = None
            elapsed = time.perf_counter() - started
            return _failed(request)(
                request.probe, ProbeStatus.CRASHED, elapsed, error=error, traceback=tail or None
            )

    def close(self) -> None:
        if self.worker is not None:
            self.worker.kill()

    def stop(self) -> None:
        """End the worker from another thread (the run was interrupted)."""
        worker = self.worker
        if worker is not None:
            worker.end()


def _failed(request: ProbeRequest | GraphRequest) -> type[ProbeResult] | type[GraphResult]:
    """The result type that answers `request` when its worker timed out or died."""
    return GraphResult if isinstance(request, GraphRequest) else ProbeResult


class WorkerPool:
    def __init__(self, jobs: int, timeout_s: float, device: str, memory_mb: int) -> None:
        self.jobs = jobs
        self.timeout_s = timeout_s
        self.device = device
        self.memory_mb = memory_mb  # per worker; 0: no limit
        self.resolved_device = device
        self.warnings: set[str] = set()
        self.log_dir = ""
        self.server: ForkServer | None = None  # while a run lasts

    @contextlib.contextmanager
    def _forking(self) -> Iterator[None]:
        """A folder for the logs and a fork server for one run, both gone after it."""
        with tempfile.TemporaryDirectory(prefix="breaklint-") as self.log_dir:
            self.server = ForkServer(os.path.join(self.log_dir, _SERVER_LOG))
            try:
                if not self.server.ready(_START_TIMEOUT_S):
                    raise DynamicError(
                        f"the fork server of the probe workers failed to start: {self.server_log()}"
                    )
                yield
            finally:
                self.server.close()
                self.server = None

    def server_log(self) -> str:
        """The end of what the fork server logged."""
        try:
            with open(os.path.join(self.log_dir, _SERVER_LOG), "rb") as handle:
                return handle.read().decode("utf-8", errors="replace")[-_LOG_TAIL:].strip()
        except OSError:
            return ""

    def run(
        self,
        probes: Sequence[Probe],
        watch: Watch,
        on_result: Callable[[ProbeResult], None] = lambda result: None,
        outputs: OutputsPlan | None = None,
        on_start: Callable[[Probe], None] = lambda probe: None,
    ) -> list[ProbeResult]:
        """Run every probe; results in the order of `probes`. `on_start` and `on_result` are
        called from the pool's threads as each probe starts and ends."""
        pending: queue.Queue[int] = queue.Queue()
        for index in range(len(probes)):
            pending.put(index)
        results: dict[int, ProbeResult] = {}
        # Whatever stops a slot, a bug in breaklint included, is raised in the calling thread:
        # a thread's own exception would print a traceback and leave its probes unanswered.
        failures: list[Exception] = []
        lock = threading.Lock()
        stopped = threading.Event()  # the run was interrupted: no more probes

        def serve(slot: _Slot) -> None:
            try:
                while not failures and not stopped.is_set():
                    try:
                        index = pending.get_nowait()
                    except queue.Empty:
                        return
                    probe = probes[index]
                    check = None if outputs is None else outputs.for_probe(probe)
                    on_start(probe)
                    result = slot.run(ProbeRequest(probe, watch, check))
                    with lock:
                        results[index] = result
                    on_result(result)
            except Exception as error:
                failures.append(error)
            finally:
                slot.close()

        with self._forking():
            slots = [_Slot(self) for _ in range(max(1, min(self.jobs, len(probes))))]
            threads = [threading.Thread(target=serve, args=(slot,), daemon=True) for slot in slots]
            for thread in threads:
                thread.start()
            with _ended_on_interrupt(slots, stopped):
                for thread in threads:
                    thread.join()
        if failures:
            raise failures[0]
        return [results[index] for index in range(len(probes))]

    def run_graphs(
        self,
        requests: Sequence[GraphRequest],
        on_start: Callable[[Probe], None] = lambda probe: None,
        on_result: Callable[[GraphResult], None] = lambda result: None,
    ) -> list[GraphResult]:
        """`breaklint graph`: the requests one after another on one worker, in order."""
        results = []
        with self._forking():
            slot = _Slot(self)
            try:
                with _ended_on_interrupt([slot], threading.Event()):
                    for request in requests:
                        on_start(request.probe)
                        results.append(slot.run(request))
                        on_result(results[-1])
            finally:
                slot.close()
        return results


@contextlib.contextmanager
def _ended_on_interrupt(slots: Sequence[_Slot], stopped: threading.Event) -> Iterator[None]:
    """On Ctrl-C, SIGTERM (as the CLI raises it) or any other exit of the waiting thread, end
    every worker and the processes below it before the exception goes on: a worker runs in a
    session of its own, which neither the terminal's Ctrl-C nor the end of this process
    reaches."""
    try:
        yield
    except BaseException:
        stopped.set()
        for slot in slots:
            slot.stop()
        raise
