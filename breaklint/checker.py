"""Phase 2: each function in compile scope is parsed on its own and every rule visits it."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from breaklint.findings import Finding
from breaklint.rule import Report, Rule, RuleContext, all_rules, collect_reports
from breaklint.scope import ScopedFunction
from breaklint.source import TOO_DEEP, file_problem, internal_error, read_source, source_lines
from breaklint.suppression import apply_suppressions
from breaklint.syntax import walk
from breaklint.tensorness import FunctionFacts

HOOK_RULE = "BL701"  # reported at a hook's registration when the hook itself breaks


def _function_node(module: ast.Module, indented: bool) -> ast.AST:
    statement = module.body[0]
    if indented:  # the snippet was wrapped in `if 1:` to keep its original columns
        assert isinstance(statement, ast.If)
        statement = statement.body[0]
    assert isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
    return statement


def _column(line: str, offset: int) -> int:
    """The 1-based character column of a UTF-8 byte offset into `line`, as `ast` counts."""
    if line.isascii():
        return offset + 1
    return len(line.encode("utf-8")[:offset].decode("utf-8", errors="replace")) + 1


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
            findings.append(file_problem(path, TOO_DEEP.format(what=what), function.start_line))
        except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
            findings.append(internal_error(path, error, function.start_line))
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
    module = ast.parse(snippet)  # the whole file parsed in phase 1, so this part does too
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
    for report in reports:
        node = report.node
        line, end_line = node.lineno + line_offset, node.end_lineno + line_offset
        rule = all_rules()[report.code]
        findings.append(
            Finding(
                code=rule.code,
                name=rule.name,
                severity=report.severity or rule.severity,
                message=report.message,
                path=path,
                line=line,
                column=_column(lines[line - 1], node.col_offset),
                end_line=end_line,
                end_column=_column(lines[end_line - 1], node.end_col_offset),
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
