"""A language server's view of one project, with no LSP in it: its settings as the command
line finds them, its files, their findings as the editor's buffers have them (from a warm
in-memory cache, so an edit re-checks only what it changes), its fixes and the dynamic phase.
"""

from __future__ import annotations

import os
import threading
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from breaklint.cache import MemoryCache
from breaklint.codes import known_codes
from breaklint.config import ConfigError, Settings, find_pyproject, load_pyproject
from breaklint.findings import Finding, Status
from breaklint.knowledge.answers import fingerprint

if TYPE_CHECKING:
    from breaklint.dynamic.model import ProbeResult


@dataclass(frozen=True, slots=True)
class Verified:
    """What the dynamic phase said about a file, and the text it ran: its findings stand for
    the file while the editor's text is still that one."""

    text: str
    findings: tuple[Finding, ...]


@dataclass(slots=True)
class ProbeRun:
    """The outcome of `breaklint.runProbes` for the user: a line per probe and warnings."""

    summary: str
    verified: dict[str, Verified] = field(default_factory=dict)


class Project:
    """The files under one folder (a workspace folder, or the one holding the nearest
    configuration), linted together as `breaklint FOLDER` would; without `walk`, only the
    editor's files in it."""

    def __init__(self, folder: str, walk: bool = True) -> None:
        self.folder = os.path.abspath(folder)
        self.walk = walk
        self.settings = Settings(root=Path(self.folder))
        self.problem: str | None = None  # why the configuration could not be read
        self.files: list[str] = []
        self.verified: dict[str, Verified] = {}
        self.selection = self.settings.selection(known_codes())
        self.cache = MemoryCache(self.settings.root, fingerprint())
        # One lint at a time: the editor's and the probes' threads share the cache.
        self._lock = threading.Lock()
        self.reload()

    def reload(self) -> None:
        """Read the configuration and list the files again (both changed on disk); keep
        cached results, whose keys say what they depend on."""
        from breaklint.discovery import discover

        try:
            config = find_pyproject(Path(self.folder))
            settings = load_pyproject(config) if config else Settings(root=Path(self.folder))
            settings.check_selectors(known_codes())
            problem = None
        except ConfigError as error:
            settings, problem = Settings(root=Path(self.folder)), str(error)
        files = discover([self.folder], settings).files if self.walk else []
        with self._lock:
            self.settings, self.problem, self.files = settings, problem, files
            self.selection = settings.selection(known_codes())
            if settings.root != self.cache.root:
                self.cache = MemoryCache(settings.root, fingerprint())
            self.verified = {}

    @property
    def config_file(self) -> str | None:
        return None if self.settings.source == "defaults" else self.settings.source

    def holds(self, path: str) -> bool:
        return os.path.commonpath([self.folder, path]) == self.folder

    def lintable(self, path: str) -> bool:
        """Whether `path` is one of the files `breaklint FOLDER` checks (or would, once it is
        saved: a new file)."""
        return path in self.files or (
            self.holds(path) and path.endswith(".py") and not self.settings.is_excluded(path)
        )

    def lint(self, unsaved: Mapping[str, str]) -> dict[str, list[Finding]]:
        """The findings of every file, by path, with `unsaved` texts read instead of the
        files; for a file the probes ran as the editor has it now, what they said."""
        from breaklint.engine import lint_paths

        texts = {path: text for path, text in unsaved.items() if self.lintable(path)}
        files = self.files + sorted(path for path in texts if path not in self.files)
        with self._lock:
            result = lint_paths(
                files, self.settings, 1, selection=self.selection, unsaved=texts, cache=self.cache
            )
        by_path: dict[str, list[Finding]] = defaultdict(list)
        for finding in result.findings:
            by_path[finding.path].append(finding)
        for path, verified in self.verified.items():
            if texts.get(path, verified.text) == verified.text:
                by_path[path] = list(verified.findings)
        return by_path

    def fix_all(self, path: str, text: str, unsafe: bool) -> str:
        """`text` with every applicable fix made, linting and fixing again until nothing
        changes, as `breaklint --fix` does; FixError when a fix cannot be made."""
        from breaklint.fix_verify import MAX_FIX_ROUNDS
        from breaklint.fixer import fixed_text

        for _ in range(MAX_FIX_ROUNDS):
            fixable = [
                f
                for f in self.lint({path: text}).get(path, [])
                if f.fix is not None and f.fix.applies(unsafe)
            ]
            if not fixable:
                break
            new = fixed_text(text, fixable)
            if new == text:
                break
            text = new
        return text

    def run_probes(self, timeout_s: float = 300.0) -> ProbeRun:
        """The dynamic phase for the probes the configuration lists, over the files as they
        are on disk; ConfigError when there are none or they cannot run."""
        from breaklint.dynamic.phase import run_dynamic
        from breaklint.dynamic.pool import DynamicError
        from breaklint.source import Unreadable, read_source

        if not self.settings.probes:
            where = self.config_file or f"a pyproject.toml in {self.folder}"
            raise ConfigError(f"no probes configured: set `probes` in [tool.breaklint] of {where}")
        static = [f for found in self.lint({}).values() for f in found]
        try:
            result = run_dynamic(
                static,
                self.files,
                list(self.settings.probes),
                jobs=1,
                timeout_s=timeout_s,
                memory_mb=None,
                device="auto",
                allowed=self.selection.allows,
            )
        except DynamicError as problem:
            raise ConfigError(str(problem)) from None
        by_path: dict[str, list[Finding]] = defaultdict(list)
        for finding in result.findings:
            by_path[finding.path].append(finding)
        run = ProbeRun(_probe_summary(result.probes, result.findings, result.warnings))
        for path in {f.path for f in static} | set(by_path):
            text = read_source(path)
            if not isinstance(text, Unreadable):
                run.verified[path] = Verified(text, tuple(by_path.get(path, ())))
        self.verified = dict(run.verified)
        return run


def _probe_summary(
    probes: Sequence[ProbeResult], findings: Sequence[Finding], warnings: Sequence[str]
) -> str:
    """One line for the run, one per probe that proved nothing, then the warnings."""
    statuses = Counter(f.status.value for f in findings if f.status is not Status.UNVERIFIED)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    lines = [f"breaklint: {len(probes)} probe(s) ran; findings: {counts or 'none verified'}"]
    lines += [f"probe {p.probe.key}: {p.status.value}" for p in probes if p.status != "ok"]
    return "\n".join([*lines, *warnings])
