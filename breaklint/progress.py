"""Progress of a long run on stderr (probes, `--hf` models, `breaklint graph`): a rich bar when
stderr is a terminal, plain lines otherwise, nothing with `--quiet`. Progress never goes to
stdout, where the report is.

The bar shows done / total, what runs now, the failures so far and the time elapsed. Plain
lines are for logs (CI, a redirected stderr): one every `LINE_INTERVAL_S` at most (while one
long item runs, too), the first only once a run has lasted that long, and one at the end when
any was written and the last did not already say it, so that a short run writes none. rich is
imported only when a bar is drawn."""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, Any

LINE_INTERVAL_S = 10.0
LINE_PREFIX = "breaklint: progress: "


class Progress:
    """Told when each item starts and ends (from any thread); say nothing until then."""

    def __init__(self, total: int, noun: str) -> None:
        self.total = total
        self.noun = noun  # what is counted: "probes", "models"
        self.done = 0
        self.failed = 0
        self.running: list[str] = []
        self.started = time.monotonic()
        self._lock = threading.Lock()

    def start(self, label: str) -> None:
        with self._lock:
            self.running.append(label)
            self._show()

    def finish(self, label: str, failed: bool) -> None:
        with self._lock:
            if label in self.running:
                self.running.remove(label)
            self.done += 1
            self.failed += failed
            self._show()

    def close(self) -> None:
        """The run is over: leave the final state on the terminal or in the log."""

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.close()

    def _show(self) -> None:
        """Show the state; called with the lock held."""

    @property
    def current(self) -> str:
        return ", ".join(self.running)


class _Lines(Progress):
    def __init__(self, total: int, noun: str, stream: IO[str], interval_s: float) -> None:
        super().__init__(total, noun)
        self.stream = stream
        self.interval_s = interval_s
        self.last_line = self.started
        self.lines = 0
        self.last_state: tuple[int, int, str] | None = None
        self._stopped = threading.Event()
        if interval_s > 0:  # a line while one long item runs, too
            threading.Thread(target=self._beat, daemon=True).start()

    def _beat(self) -> None:
        while not self._stopped.wait(self.interval_s):
            with self._lock:
                self._show()

    def _show(self) -> None:
        now = time.monotonic()
        if now - self.last_line >= self.interval_s:
            self._write(now)

    def close(self) -> None:
        self._stopped.set()
        if self.lines and self.last_state != (self.done, self.failed, self.current):
            self._write(time.monotonic())

    def _write(self, now: float) -> None:
        self.last_state = (self.done, self.failed, self.current)
        failed = f", {self.failed} failed" if self.failed else ""
        running = f"; running {self.current}" if self.running else ""
        self.stream.write(
            f"{LINE_PREFIX}{self.done}/{self.total} {self.noun} done{failed}, "
            f"{now - self.started:.0f}s elapsed{running}\n"
        )
        self.stream.flush()
        self.last_line = now
        self.lines += 1


class _Bar(Progress):
    def __init__(self, total: int, noun: str, stream: IO[str]) -> None:
        super().__init__(total, noun)
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.progress import Progress as RichProgress

        self.bar = RichProgress(
            TextColumn(f"{noun}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failed]}"),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=Console(file=stream),
        )
        self.task = self.bar.add_task("", total=total, failed="")
        self.bar.start()

    def _show(self) -> None:
        fields: dict[str, Any] = {"failed": f"{self.failed} failed" if self.failed else ""}
        self.bar.update(self.task, completed=self.done, description=self.current, **fields)

    def close(self) -> None:
        self._show()
        self.bar.stop()


def progress(
    total: int,
    noun: str,
    enabled: bool,
    stream: IO[str] | None = None,
    interval_s: float = LINE_INTERVAL_S,
) -> Progress:
    """What reports a run of `total` items on `stream` (stderr): a bar on a terminal, plain
    lines elsewhere, nothing when not `enabled` (`--quiet`) or when there is nothing to run."""
    stream = sys.stderr if stream is None else stream
    if not enabled or total == 0:
        return Progress(total, noun)
    if stream.isatty():
        return _Bar(total, noun, stream)
    return _Lines(total, noun, stream, interval_s)
