"""The static engine's jobs: what a worker process is handed for one file.

A job is named, picklable data that owns its cache key (what its result depends on) and the
JSON form of its result. The checker, and so the rules, are imported only by a process that
runs a job: a run answered from the cache never imports them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from breaklint.cache import (
    ResultCache,
    file_result_from_json,
    file_result_to_json,
    findings_from_json,
    findings_to_json,
    scoped_to_json,
)

if TYPE_CHECKING:
    from breaklint.checker import FileResult
    from breaklint.findings import Finding
    from breaklint.index import ModuleIndex
    from breaklint.scope import ScopedFunction, ScopeOptions

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Task(Protocol[R_co]):
    """What a worker runs."""

    @property
    def path(self) -> str: ...  # the file it is about: the largest files go first

    def run(self) -> R_co: ...


class Job(Task[R], Protocol[R]):
    """A task whose result can be cached."""

    def cache_key(self) -> list[Any] | None:
        """What the result depends on, as JSON; None: never cached."""

    def result_to_json(self, result: R) -> Any: ...

    def result_from_json(self, data: Any) -> R:
        """The stored result; KeyError, TypeError or ValueError for an entry of another shape."""


@dataclass(frozen=True, slots=True)
class CheckJob:
    """Read, parse and index a file, then check it against its own scope."""

    path: str
    package: list[str]
    module: str
    codes: frozenset[str]
    scope: ScopeOptions
    digest: str | None  # of the file's bytes (or unsaved text); None when it cannot be read
    text: str | None = None  # an editor's unsaved text, read instead of the file
    # Parse and index only: the file is linked to others (`engine._index_only`), and its
    # functions are checked against the project's scope.
    index_only: bool = False

    def run(self) -> FileResult:
        from breaklint.checker import check_file

        return check_file(
            self.path, self.package, self.module, self.codes, self.scope, self.text, self.index_only
        )

    def cache_key(self) -> list[Any] | None:
        # A file is checked against its own scope, which depends on nothing else.
        if self.digest is None:
            return None
        return [
            *("file", self.path, self.package, self.module, self.digest),
            *(sorted(self.codes), dataclasses.asdict(self.scope)),
            *(["index-only"] if self.index_only else []),
        ]

    def result_to_json(self, result: FileResult) -> Any:
        return file_result_to_json(result)

    def result_from_json(self, data: Any) -> FileResult:
        return file_result_from_json(data, self.path)


@dataclass(frozen=True, slots=True)
class RecheckJob:
    """Check again the functions whose project-wide scope differs from the file's own."""

    path: str
    package: list[str]  # for relative imports, as the file was indexed
    functions: list[ScopedFunction]
    codes: frozenset[str]
    digest: str | None
    index: ModuleIndex  # the file's, from its check: what its key stands for
    text: str | None = None  # as CheckJob's

    def run(self) -> list[Finding]:
        from breaklint.checker import recheck_file

        return recheck_file(self.path, self.index, self.functions, self.codes, self.text)

    def cache_key(self) -> list[Any] | None:
        # What scope hands to the file is in the key: a change elsewhere that alters it re-lints.
        if self.digest is None:
            return None
        functions = scoped_to_json(self.functions)
        return ["recheck", self.path, self.package, self.digest, sorted(self.codes), functions]

    def result_to_json(self, result: list[Finding]) -> Any:
        return findings_to_json(result)

    def result_from_json(self, data: Any) -> list[Finding]:
        return findings_from_json(data, (self.path,))


@dataclass(frozen=True, slots=True)
class Storing(Generic[R]):
    """A job whose result the process that computes it also stores under `key`."""

    job: Job[R]
    cache: ResultCache
    key: str | None

    @property
    def path(self) -> str:
        return self.job.path

    def run(self) -> R:
        result = self.job.run()
        if self.key:
            self.cache.store(self.key, self.job.result_to_json(result))
        return result
