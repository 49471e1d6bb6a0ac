"""The static engine: files -> index (ast) -> compile scope -> rules (libcst) -> findings.

Workers receive paths and plain data and return plain data; no CST node leaves a worker.
"""

from __future__ import annotations

import ast
import hashlib
import io
import multiprocessing
import os
import re
import tokenize
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from breaklint.cache import (
    ResultCache,
    file_digest,
    findings_from_json,
    findings_to_json,
    index_from_json,
    index_to_json,
)
from breaklint.config import Settings, _matches_any
from breaklint.discovery import package_parts
from breaklint.findings import Finding
from breaklint.index import ModuleIndex, build_index
from breaklint.rule import Report, Rule, RuleContext, all_rules, collect_reports
from breaklint.scope import Project, ScopedFunction, compile_scope
from breaklint.suppression import apply_suppressions, is_skipped
from breaklint.syntax import parse_module, walk
from breaklint.tensorness import FunctionFacts

PARSE_ERROR = "BL001"
INTERNAL_ERROR = "BL002"
TOO_DEEP = "{what} is nested too deeply to analyse; nothing in it was checked"
HOOK_RULE = "BL701"  # reported at a hook's registration when the hook itself breaks
_LINE = re.compile(r"(?<=\n)")
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
    notes: list[str] = field(default_factory=list)


def source_lines(text: str) -> list[str]:
    """Lines as Python numbers them (form feeds and other separators do not split)."""
    return _LINE.split(text)


def _file_problem(
    path: str, message: str, line: int = 1, column: int = 1, code: str = PARSE_ERROR
) -> Finding:
    rule = all_rules()[code]
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=message,
        path=path,
        line=line,
        column=column,
        end_line=line,
        end_column=column,
        url=rule.url(),
        hint=rule.hint,
    )


def _internal_error(path: str, error: Exception, line: int) -> Finding:
    detail = f"{type(error).__name__}: {error}".splitlines()[0]
    message = f"{all_rules()[INTERNAL_ERROR].message} ({detail})"
    return _file_problem(path, message, line, code=INTERNAL_ERROR)


def read_source(path: str) -> tuple[str | None, Finding | None]:
    """The decoded text of a file (PEP 263 aware), or the finding that explains why not."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return None, _file_problem(path, f"cannot read file: {error.strerror or error}")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).removeprefix("\ufeff"), None
    except SyntaxError as error:
        return None, _file_problem(path, f"cannot decode file: {error.msg}")
    except (UnicodeDecodeError, LookupError) as error:
        line = data[: getattr(error, "start", 0)].count(b"\n") + 1
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        return None, _file_problem(
            path,
            f"cannot decode file as {encoding}: {reason} (declare its encoding, PEP 263)",
            line,
        )


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
            path, None, [_file_problem(path, message, error.lineno or 1, error.offset or 1)]
        )
    except ValueError as error:  # e.g. a null byte in the source
        return IndexResult(path, None, [_file_problem(path, f"cannot parse file: {error}")])
    except (RecursionError, MemoryError):
        return IndexResult(path, None, [_file_problem(path, TOO_DEEP.format(what="this file"))])
    except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
        return IndexResult(path, None, [_internal_error(path, error, 1)])


def _function_node(module: cst.Module, indented: bool) -> cst.FunctionDef:
    statement = module.body[0]
    if indented:  # the snippet was wrapped in `if 1:` to keep its original columns
        assert isinstance(statement, cst.If)
        statement = statement.body.body[0]
    assert isinstance(statement, cst.FunctionDef)
    return statement


def _positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """Every node's position. `MetadataWrapper.resolve` would also walk the whole tree once more
    for batchable providers, of which there are none here."""
    return PositionProvider()._gen(MetadataWrapper(module, unsafe_skip_copy=True))


def lint_file(
    path: str,
    functions: Sequence[ScopedFunction],
    codes: frozenset[str],
    imports: dict[str, str],
) -> list[Finding]:
    """Phase 2 for one file: run the enabled rules over each function in scope."""
    text, problem = read_source(path)
    if text is None:
        return [problem] if problem else []
    lines = source_lines(text)
    rules = [rule for code, rule in all_rules().items() if code in codes]
    findings: list[Finding] = []
    for function in functions:
        try:
            findings.extend(_lint_function(path, function, codes, imports, lines, rules))
        except (RecursionError, MemoryError):
            what = f"`{function.qualname}`"
            findings.append(_file_problem(path, TOO_DEEP.format(what=what), function.start_line))
        except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
            findings.append(_internal_error(path, error, function.start_line))
    return apply_suppressions(findings, text, lines)


def _lint_function(
    path: str,
    function: ScopedFunction,
    codes: frozenset[str],
    imports: dict[str, str],
    lines: list[str],
    rules: list[type[Rule]],
) -> list[Finding]:
    """The findings of one function in scope."""
    findings: list[Finding] = []
    body = "".join(lines[function.start_line - 1 : function.end_line])
    # An indented method parses on its own under `if 1:`, which keeps every column exact.
    snippet = f"if 1:\n{body}" if function.indented else body
    line_offset = function.start_line - (2 if function.indented else 1)
    try:
        module = parse_module(snippet)
    except cst.ParserSyntaxError as error:
        message = f"libcst cannot parse {function.qualname}: {error.message}"
        return [_file_problem(path, message, function.start_line)]
    facts = FunctionFacts(imports, root=function.root)
    context = RuleContext(
        path, function.qualname, function.scope, imports, facts, function.disabled_calls
    )
    visitors = [rule(context) for rule in rules]
    # The facts visitor goes first so that rules see names bound before the node they visit.
    walk(_function_node(module, function.indented), [facts, *visitors])
    reports = collect_reports(visitors)
    if not reports:
        return findings
    # Positions are computed only for snippets that have something to report.
    positions = _positions(module)
    for report in reports:
        where = positions[report.node]
        rule = all_rules()[report.code]
        findings.append(
            Finding(
                code=rule.code,
                name=rule.name,
                severity=report.severity or rule.severity,
                message=report.message,
                path=path,
                line=where.start.line + line_offset,
                column=where.start.column + 1,
                end_line=where.end.line + line_offset,
                end_column=where.end.column + 1,
                url=rule.url(),
                hint=report.hint,
                scope=function.scope,
                fix=report.fix,
            )
        )
    if HOOK_RULE in codes:
        findings.extend(_registration_findings(path, function, reports))
    return findings


def _registration_findings(path: str, hook: ScopedFunction, reports: list[Report]) -> list[Finding]:
    """Mention a hook's graph breaks where the hook is registered (same file only)."""
    codes = sorted({r.code for r in reports if all_rules()[r.code].breaks_graph})
    if not codes:
        return []
    rule = all_rules()[HOOK_RULE]
    message = (
        f"hook `{hook.qualname}` breaks the graph ({', '.join(codes)} inside it): Dynamo "
        "inlines hooks into the compiled module's graph, so every call of the module is split"
    )
    return [
        Finding(
            code=rule.code,
            name=rule.name,
            severity=rule.severity,
            message=message,
            path=path,
            line=registration.line,
            column=registration.column,
            end_line=registration.line,
            end_column=registration.end_column,
            url=rule.url(),
            hint=rule.hint,
            scope=hook.scope,
        )
        for registration in hook.registrations
    ]


R = TypeVar("R")


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
    enabled = settings.enabled_codes(list(all_rules()))
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
        lint_file, calls, jobs, cache, lint_key, findings_to_json, findings_from_json
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
