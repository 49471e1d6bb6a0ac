"""The static engine: files -> index (ast) -> compile scope -> rules (libcst) -> findings.

Workers receive paths and plain data and return plain data; no CST node leaves a worker.
"""

from __future__ import annotations

import ast
import io
import multiprocessing
import os
import re
import tokenize
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from breaklint.config import Settings, _matches_any
from breaklint.discovery import package_parts
from breaklint.findings import Finding
from breaklint.index import ModuleIndex, build_index
from breaklint.rule import Rule, RuleContext, all_rules
from breaklint.scope import Project, ScopedFunction, compile_scope
from breaklint.suppression import apply_suppressions, is_skipped

PARSE_ERROR = "BL001"
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


def _file_problem(path: str, message: str, line: int = 1, column: int = 1) -> Finding:
    rule = all_rules()[PARSE_ERROR]
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
            path, f"cannot decode file as {encoding}: {reason} (declare its encoding, PEP 263)", line
        )


def index_file(path: str, package: list[str]) -> IndexResult:
    """Phase 1 for one file: read, skip-file check, `ast.parse`, index."""
    text, problem = read_source(path)
    if text is None:
        return IndexResult(path, None, [problem] if problem else [])
    if is_skipped(text):
        return IndexResult(path, None, [])
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        message = f"SyntaxError: {error.msg}"
        return IndexResult(
            path, None, [_file_problem(path, message, error.lineno or 1, error.offset or 1)]
        )
    except ValueError as error:  # e.g. a null byte in the source
        return IndexResult(path, None, [_file_problem(path, f"cannot parse file: {error}")])
    return IndexResult(path, build_index(path, tree, package), [])


def _function_node(module: cst.Module, indented: bool) -> cst.FunctionDef:
    statement = module.body[0]
    if indented:  # the snippet was wrapped in `if 1:` to keep its original columns
        assert isinstance(statement, cst.If)
        statement = statement.body.body[0]
    assert isinstance(statement, cst.FunctionDef)
    return statement


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
        body = "".join(lines[function.start_line - 1 : function.end_line])
        # An indented method parses on its own under `if 1:`, which keeps every column exact.
        snippet = f"if 1:\n{body}" if function.indented else body
        line_offset = function.start_line - (2 if function.indented else 1)
        try:
            module = cst.parse_module(snippet)
        except cst.ParserSyntaxError as error:
            findings.append(
                _file_problem(
                    path, f"libcst cannot parse {function.qualname}: {error.message}",
                    function.start_line,
                )
            )
            continue
        context = RuleContext(path, function.qualname, function.scope, imports)
        visitors = [rule(context) for rule in rules]
        cst.visit_batched(_function_node(module, function.indented), visitors)
        reports = [report for visitor in visitors for report in visitor.reports]
        if not reports:
            continue
        # Positions are computed only for snippets that have something to report.
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        for report in reports:
            where = positions[report.node]
            rule = all_rules()[report.code]
            findings.append(
                Finding(
                    code=rule.code,
                    name=rule.name,
                    severity=rule.severity,
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
    return apply_suppressions(findings, text, lines)


R = TypeVar("R")


def _map(function: Callable[..., R], calls: list[tuple], jobs: int) -> list[R]:
    """Run `function(*args)` for each call, in a process pool when that pays off."""
    if jobs <= 1 or len(calls) < _POOL_MIN_FILES:
        return [function(*args) for args in calls]
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    chunk = max(1, len(calls) // (jobs * 8))
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        return list(pool.map(function, *zip(*calls, strict=True), chunksize=chunk))


def codes_for(path: str, settings: Settings, enabled: frozenset[str]) -> frozenset[str]:
    ignored = settings.ignored_for(path)
    return frozenset(c for c in enabled if not _matches_any(c, ignored)) if ignored else enabled


def lint_paths(files: Iterable[str], settings: Settings, jobs: int) -> LintResult:
    """Lint files end to end and return sorted findings."""
    files = list(files)
    enabled = settings.enabled_codes(list(all_rules()))
    packages: dict[str, list[str]] = {}
    indexed = _map(index_file, [(path, package_parts(path, packages)) for path in files], jobs)
    findings = [
        problem
        for result in indexed
        for problem in result.problems
        if problem.code in codes_for(result.path, settings, enabled)
    ]
    indexes = {r.path: r.index for r in indexed if r.index is not None}
    module_names = {path: _module_name(path, package_parts(path, packages)) for path in indexes}
    project = Project(indexes, module_names)
    scoped = compile_scope(project, everything=settings.scope == "all")
    calls = [
        (path, functions, codes_for(path, settings, enabled), indexes[path].imports)
        for path, functions in sorted(scoped.items())
    ]
    for result in _map(lint_file, calls, jobs):
        findings.extend(result)
    findings.sort(key=Finding.sort_key)
    skipped = sum(1 for r in indexed if r.index is None and not r.problems)
    return LintResult(findings, files_checked=len(files), files_skipped=skipped)


def _module_name(path: str, package: list[str]) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    return ".".join(package if stem == "__init__" and package else [*package, stem])
