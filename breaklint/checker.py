"""Phase 2: libcst parses each function in compile scope and the rules visit it.

Imported only when some file has to be checked (an unchanged, cached run never pays for libcst).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from breaklint.findings import Finding
from breaklint.rule import Report, Rule, RuleContext, all_rules, collect_reports
from breaklint.scope import ScopedFunction
from breaklint.source import TOO_DEEP, file_problem, internal_error, read_source, source_lines
from breaklint.suppression import apply_suppressions
from breaklint.syntax import parse_module, walk
from breaklint.tensorness import FunctionFacts

HOOK_RULE = "BL701"  # reported at a hook's registration when the hook itself breaks


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
    try:
        module = parse_module(snippet)
    except cst.ParserSyntaxError as error:
        message = f"libcst cannot parse {function.qualname}: {error.message}"
        return [file_problem(path, message, function.start_line)]
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
