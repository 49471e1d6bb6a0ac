"""The static engine: files -> index (ast) -> compile scope -> rules (ast) -> findings.

Workers receive paths and plain data and return plain data; no CST node leaves a worker.
"""

from __future__ import annotations

import ast
import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from breaklint.cache import (
    ResultCache,
    file_digest,
    findings_from_json,
    findings_to_json,
    index_from_json,
    index_to_json,
)
from breaklint.codes import known_codes
from breaklint.config import Settings, _matches_any
from breaklint.discovery import package_parts
from breaklint.findings import Finding
from breaklint.index import ModuleIndex, build_index
from breaklint.scope import Project, compile_scope
from breaklint.source import TOO_DEEP, file_problem, internal_error, read_source
from breaklint.suppression import is_skipped

_POOL_MIN_FILES = 8  # below this, starting workers costs more than it saves


@dataclass(slots=True)
class IndexResult:
    path: str
    index: ModuleIndex | None
    problems: list[Finding]


@dataclass(slots=True)
class LintResult:
    findings: list[Finding]
    files_checked: int
    files_skipped: int = 0


def index_file(path: str, package: list[str]) -> IndexResult:
    """Phase 1 for one file: read, skip-file check, `ast.parse`, index."""
    text, problem = read_source(path)
    if text is None:
        return IndexResult(path, None, [problem] if problem else [])
    if is_skipped(text):
        return IndexResult(path, None, [])
    try:
        return IndexResult(path, build_index(path, ast.parse(text, filename=path), package), [])
    except SyntaxError as error:
        message = f"SyntaxError: {error.msg}"
        return IndexResult(
            path, None, [file_problem(path, message, error.lineno or 1, error.offset or 1)]
        )
    except ValueError as error:  # e.g. a null byte in the source
        return IndexResult(path, None, [file_problem(path, f"cannot parse file: {error}")])
    except (RecursionError, MemoryError):
        return IndexResult(path, None, [file_problem(path, TOO_DEEP.format(what="this file"))])
    except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
        return IndexResult(path, None, [internal_error(path, error, 1)])


R = TypeVar("R")


def _lint_file(*args: Any) -> list[Finding]:
    """Phase 2 of one file, importing the rules only in a process that needs them."""
    from breaklint.checker import lint_file

    return lint_file(*args)


def _map(function: Callable[..., R], calls: list[tuple], jobs: int) -> list[R]:
    """Run `function(*args)` for each call, in a process pool when that pays off."""
    if jobs <= 1 or len(calls) < _POOL_MIN_FILES:
        return [function(*args) for args in calls]
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    chunk = max(1, len(calls) // (jobs * 8))
    try:
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            return list(pool.map(function, *zip(*calls, strict=True), chunksize=chunk))
    except BrokenProcessPool:  # a worker was killed (out of memory?): finish in this process
        return [function(*args) for args in calls]


def codes_for(path: str, settings: Settings, enabled: frozenset[str]) -> frozenset[str]:
    if not settings.per_file_ignores:
        return enabled  # without resolving the path against the root for nothing
    ignored = settings.ignored_for(path)
    return frozenset(c for c in enabled if not _matches_any(c, ignored)) if ignored else enabled


def lint_paths(
    files: Iterable[str], settings: Settings, jobs: int, use_cache: bool = True
) -> LintResult:
    """Lint files end to end and return sorted findings."""
    files = list(files)
    enabled = settings.enabled_codes(known_codes())
    packages: dict[str, list[str]] = {}
    package_of = {path: package_parts(path, packages) for path in files}
    codes_of = {path: codes_for(path, settings, enabled) for path in files}
    everything = settings.scope == "all"
    if not use_cache:
        return _lint(files, package_of, codes_of, everything, jobs, None, {})
    cache = ResultCache(settings.root, _knowledge_version())
    digests = {path: file_digest(path) for path in files}
    # With nothing changed the whole run is one entry: no index, scope or per-file lookups.
    key = None
    if all(digests.values()):
        inputs = [(path, package_of[path], digests[path], sorted(codes_of[path])) for path in files]
        key = cache.key("run", everything, inputs)
        stored = cache.load(key)
        try:
            if stored is not None:
                findings = findings_from_json(stored["findings"])
                return LintResult(findings, len(files), files_skipped=stored["skipped"])
        except (KeyError, TypeError, ValueError):  # an entry of the wrong shape is a miss
            pass
    result = _lint(files, package_of, codes_of, everything, jobs, cache, digests)
    if key is not None:
        stored = {"findings": findings_to_json(result.findings), "skipped": result.files_skipped}
        cache.store(key, stored)
    return result


def _lint(
    files: list[str],
    package_of: dict[str, list[str]],
    codes_of: dict[str, frozenset[str]],
    everything: bool,
    jobs: int,
    cache: ResultCache | None,
    digests: dict[str, str | None],
) -> LintResult:
    """Both phases, each file answered from the cache when its entry is there."""

    # A file that could not be read has no digest and is not cached.
    def index_key(path: str, package: list[str]) -> tuple | None:
        return ("index", path, package, digests[path]) if digests[path] else None

    def lint_key(path: str, functions: list, codes: frozenset[str], imports: dict) -> tuple | None:
        # What scope hands to the file is in the key: a change elsewhere that alters it re-lints.
        key = ("lint", path, digests[path], sorted(codes), imports, functions)
        return key if digests[path] else None

    calls = [(path, package_of[path]) for path in files]
    indexed = _cached_map(
        index_file, calls, jobs, cache, index_key, _index_to_json, _index_from_json
    )
    findings = [
        problem
        for result in indexed
        for problem in result.problems
        if problem.code in codes_of[result.path]
    ]
    indexes = {r.path: r.index for r in indexed if r.index is not None}
    module_names = {path: _module_name(path, package_of[path]) for path in indexes}
    scoped = compile_scope(Project(indexes, module_names), everything=everything)
    calls = [
        (path, functions, codes_of[path], indexes[path].imports)
        for path, functions in sorted(scoped.items())
    ]
    for result in _cached_map(
        _lint_file, calls, jobs, cache, lint_key, findings_to_json, findings_from_json
    ):
        findings.extend(result)
    findings.sort(key=Finding.sort_key)
    skipped = sum(1 for r in indexed if r.index is None and not r.problems)
    return LintResult(findings, files_checked=len(files), files_skipped=skipped)


def _cached_map(
    function: Callable[..., R],
    calls: list[tuple],
    jobs: int,
    cache: ResultCache | None,
    key_parts: Callable[..., tuple | None],
    to_json: Callable[[R], Any],
    from_json: Callable[[Any], R],
) -> list[R]:
    """`_map`, answering from the cache what it holds and storing what had to be computed."""
    if cache is None:
        return _map(function, calls, jobs)
    results: list[R | None] = []
    keys: list[str | None] = []
    for args in calls:
        parts = key_parts(*args)
        key = cache.key(*parts) if parts else None
        stored = cache.load(key) if key else None
        try:
            results.append(None if stored is None else from_json(stored))
        except (KeyError, TypeError, ValueError):  # an entry of the wrong shape is a miss
            results.append(None)
        keys.append(key)
    missing = [i for i, result in enumerate(results) if result is None]
    computed = _map(function, [calls[i] for i in missing], jobs)
    for i, result in zip(missing, computed, strict=True):
        results[i] = result
        if keys[i]:
            cache.store(keys[i], to_json(result))
    return results  # type: ignore[return-value]


def _index_to_json(result: IndexResult) -> dict[str, Any]:
    index = result.index
    return {
        "path": result.path,
        "index": None if index is None else index_to_json(index),
        "problems": findings_to_json(result.problems),
    }


def _index_from_json(data: dict[str, Any]) -> IndexResult:
    index = data["index"]
    return IndexResult(
        data["path"],
        None if index is None else index_from_json(index),
        findings_from_json(data["problems"]),
    )


def _knowledge_version() -> str:
    """What the rules know beyond their code: the numpy functions Dynamo traces."""
    from breaklint.rules._numpy_support import traced_numpy_functions

    names = "\n".join(sorted(traced_numpy_functions()))
    return hashlib.sha256(names.encode()).hexdigest()


def _module_name(path: str, package: list[str]) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    return ".".join(package if stem == "__init__" and package else [*package, stem])
