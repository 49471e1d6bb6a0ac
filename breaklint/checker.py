"""Checking files: one `ast.parse` per file gives its index, and the rules visit its functions.

A worker checks each file against the scope the file implies on its own (`check_file`): its
modules' `forward` methods, its compiled functions and hooks, and what they call inside the
file. The worker also checks again, with the tree still at hand, the functions that call one of
the file's own that breaks (`breaklint.call_breaks`): what they are when the file is its own
project. The engine then re-checks only the functions whose scope the rest of the project
changes (`recheck_file`): a helper reached from another file, a callee disabled elsewhere.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from breaklint.analysis import annotate
from breaklint.call_breaks import Break, breaking_calls
from breaklint.class_attributes import SelfAssignments
from breaklint.codes import INTERNAL_ERROR, PARSE_ERROR
from breaklint.compile_stage import CompileStage
from breaklint.findings import Finding, Severity
from breaklint.index import ModuleIndex, build_index, code_words
from breaklint.rule import (
    Outline,
    Phase,
    Rule,
    RuleContext,
    all_rules,
    collect_reports,
    rules_for,
)
from breaklint.scope import (
    DefinitionRef,
    Project,
    Scope,
    ScopedFunction,
    ScopeOptions,
    compile_scope,
)
from breaklint.source import (
    LazyLines,
    Unreadable,
    collector_paused,
    column,
    compile_tree,
    deep_recursion,
    parse_tree,
    read_source,
    recursion_limit,
    stack_depth,
)
from breaklint.suppression import Suppressions, is_skipped
from breaklint.syntax import walk
from breaklint.tensor_text import names_used_as_sparse, names_used_as_tensors
from breaklint.tensorness import FunctionFacts

Nodes = dict[str, ast.FunctionDef | ast.AsyncFunctionDef]


@dataclass(slots=True)
class CheckedFunction:
    """A function in scope and its findings (suppressions applied)."""

    function: ScopedFunction
    findings: list[Finding]


@dataclass(slots=True)
class FileResult:
    path: str
    # Its index (`index`), pickled when another process sent it; None when the file cannot be
    # parsed or is skipped.
    stored_index: ModuleIndex | bytes | None
    problems: list[Finding]  # why it could not be checked
    checked: list[CheckedFunction]  # against the file's own scope
    # Those of `checked` that call one of the file's functions that breaks, with those calls
    # (`ScopedFunction.breaking_calls`) and checked again: as they are when the file is alone.
    settled: list[CheckedFunction] = field(default_factory=list)
    words: str = ""  # `ModuleIndex.words`, read without unpickling the index

    @property
    def parsed(self) -> bool:
        return self.stored_index is not None

    @property
    def index(self) -> ModuleIndex | None:
        """The file's index. Between processes it travels pickled apart, and is unpickled
        when read: the engine reads only the indexes of the files linked to others (a tenth
        of transformers' modeling files), and the words of every file."""
        if isinstance(self.stored_index, bytes):
            import pickle  # here: only a result from another process holds a pickled index

            self.stored_index = cast(ModuleIndex, pickle.loads(self.stored_index))
        return self.stored_index

    def __reduce__(self) -> tuple[type[FileResult], tuple[object, ...]]:
        import pickle  # here: a run in one process (`breaklint FILE`) pickles nothing

        index = self.stored_index
        if isinstance(index, ModuleIndex):
            index = pickle.dumps(index, pickle.HIGHEST_PROTOCOL)
        return FileResult, (self.path, index, self.problems, self.checked, self.settled, self.words)


def check_file(
    path: str,
    package: list[str],
    module: str,
    codes: frozenset[str],
    scope: ScopeOptions,
    text: str | None = None,
    index_only: bool = False,
) -> FileResult:
    """Read, parse and index one file, then check it against its own scope. `text`, when
    given, is the file's text instead of what is on disk (an editor's unsaved buffer). With
    `index_only` the file is not checked (`checked` is empty): the engine knows it is linked
    to others, and checks its functions against the project's scope (`engine._index_only`)."""
    with collector_paused():
        return _check_file(path, package, module, codes, scope, text, index_only)


def _check_file(
    path: str,
    package: list[str],
    module: str,
    codes: frozenset[str],
    scope: ScopeOptions,
    unsaved: str | None,
    index_only: bool,
) -> FileResult:
    parsed = _parse(path, package, unsaved)
    if isinstance(parsed, FileResult):
        return parsed
    text, tree, index, nodes = parsed
    index.words = code_words(text)
    if index_only:
        return FileResult(path, index, [], [], words=index.words)
    source = LazyLines(text)
    project = Project({path: index}, {path: module})
    with deep_recursion():
        functions = annotate(project, compile_scope(project, scope))
        checked = check_functions(path, source, nodes, functions.get(path, []), codes, index)
    if not any(result.findings for result in checked):
        return FileResult(path, index, [], checked, words=index.words)
    suppressions = Suppressions(text, source.lines, tree)
    for result in checked:
        result.findings = suppressions.apply(result.findings)
    scoped = {path: [done.function for done in checked]}
    found = {(path, done.function.qualname): done.findings for done in checked}
    # The scope's project: its answers do not depend on the order asked in
    # (`Project._found_once`), as the engine's (`engine._in_project_scope`).
    summarised = breaking_calls(project, scoped, own_breaks(scoped, found, project))
    changed = [function for function in summarised[path] if function.breaking_calls]
    with deep_recursion():
        settled = check_functions(path, source, nodes, changed, codes, index)
    for result in settled:
        result.findings = suppressions.apply(result.findings)
    # Then the `__init__`s that what those findings say runs eagerly (`eager_inits`).
    found.update({(path, done.function.qualname): done.findings for done in settled})
    settled_functions = {done.function.qualname: done.function for done in settled}
    summarised[path] = [settled_functions.get(f.qualname, f) for f in summarised[path]]
    inits = eager_inits(summarised, found, project).get(path, [])
    if inits:
        with deep_recursion():
            eager = check_functions(path, source, nodes, inits, codes, index)
        for result in eager:
            result.findings = suppressions.apply(result.findings)
        settled += eager
    return FileResult(path, index, [], checked, settled, index.words)


def own_breaks(
    scoped: dict[str, list[ScopedFunction]],
    by_function: dict[tuple[str, str], list[Finding]],
    project: Project,
) -> dict[DefinitionRef, Break]:
    """Each function's own graph break, certain (an error) before one that may happen."""
    rules = all_rules()
    module_of = {index.path: module for module, index in project.by_module.items()}
    own: dict[DefinitionRef, Break] = {}
    for path, functions in scoped.items():
        for function in functions:
            breaks = [
                f
                for f in by_function.get((path, function.qualname), ())
                if f.code in rules
                and rules[f.code].breaks_graph
                and not rules[f.code].recompiles
                and f.severity in (Severity.ERROR, Severity.WARNING)
            ]
            if breaks:
                ref = DefinitionRef(module_of[path], function.qualname)
                # In a followed library, whether a break under a traced `if` happens depends
                # on the values the linted call passes: one that happens whatever they are
                # first.
                library = ref.module in project.followed
                first = min(
                    breaks,
                    key=lambda f: (
                        library and f.guarded,
                        f.severity is not Severity.ERROR,
                        f.range.line,
                    ),
                )
                where = f"{first.code} {path}:{first.range.line}"
                own[ref] = Break(
                    first.severity is Severity.ERROR,
                    where,
                    first.message,
                    library and first.guarded,
                )
    return own


def eager_inits(
    scoped: dict[str, list[ScopedFunction]],
    by_function: dict[tuple[str, str], list[Finding]],
    project: Project,
) -> dict[str, list[ScopedFunction]]:
    """The `__init__`s of `nn.Module` classes that compiled code makes where they run eagerly,
    each with `ScopedFunction.eager_init` set: in a function whose findings say its frame is
    skipped (the whole frame runs eagerly, the constructors it calls included; where a BL209
    skip may not happen, only the objects that cause it where they are made; not where a
    break before the skip splits the frame), or where an
    `__init__` on the way breaks (the caller breaks at the call and runs the constructor
    eagerly). Dynamo then compiles each `__init__` as a frame of its own, and meets `self`
    before `nn.Module.__init__` has set it up (measured with torch 2.13: "Uninitialized
    nn.Module", GB0119, each project `__init__` that `super().__init__()` chains to as well)."""
    rules = all_rules()
    module_of = {index.path: module for module, index in project.by_module.items()}
    own = own_breaks(scoped, by_function, project)
    found: dict[DefinitionRef, tuple[bool, str]] = {}
    # The metaclass `__call__`s such an instance runs (`Project.metaclass_call`): Dynamo
    # compiles each as a frame of its own too, and breaks at its `super().__call__(...)`.
    calls: dict[DefinitionRef, tuple[bool, str, Scope]] = {}
    # The functions such a frame calls (`ScopedFunction.eager_frame`), each a frame of its own.
    frames: dict[DefinitionRef, tuple[bool, str]] = {}
    for path, functions in scoped.items():
        for function in functions:
            ref = DefinitionRef(module_of[path], function.qualname)
            info = project.function(ref)
            if info is None:
                continue
            findings = [
                f for f in by_function.get((path, function.qualname), ()) if f.code in rules
            ]
            skips = [f for f in findings if rules[f.code].skips_frame]
            # A break before the first skip splits the frame: Dynamo resumes after it, and
            # the skip then runs only the rest eagerly; what ran before it was traced, and
            # which constructors ran where is not known here.
            breaks_before = [
                f
                for f in findings
                if rules[f.code].breaks_graph and f.severity in (Severity.ERROR, Severity.WARNING)
            ]
            if skips and any(
                b.range.line < min(f.range.line for f in skips) for b in breaks_before
            ):
                skips = []
            skipped_certainly = any(f.severity is Severity.ERROR for f in skips)
            skip_why = ""
            if skips:
                first = min(skips, key=lambda f: f.range.line)
                skip_why = f"`{function.qualname}` is skipped at {path}:{first.range.line}"
            for callee in dict.fromkeys(info.callees):
                made = project.constructed(ref.module, info, callee)
                if made is None:
                    # A function the skipped frame calls: Dynamo compiles it alone.
                    target = project.resolve_callee(ref.module, info, callee) if skips else None
                    known_frame = frames.get(target) if target is not None else None
                    if target is not None and (
                        known_frame is None or (skipped_certainly and not known_frame[0])
                    ):
                        frames[target] = (skipped_certainly, skip_why)
                    continue
                module_class = project.is_module_class(made)
                meta_call = project.metaclass_call(made)
                if not module_class and meta_call is None:
                    continue
                chain = _module_inits(project, made)
                breaks = [own[init] for init in chain if init in own]
                if skips and (
                    skipped_certainly
                    or callee in function.method_holders
                    or not all(rules[f.code].skips_where_holders_are_made for f in skips)
                ):
                    first = min(skips, key=lambda f: f.range.line)
                    certain = skipped_certainly
                    why = f"`{function.qualname}` is skipped at {path}:{first.range.line}"
                elif breaks:
                    certain = any(b.certain for b in breaks)
                    code, _, place = breaks[0].where.partition(" ")
                    why = f"its `__init__` breaks: {code} at {place}"
                else:
                    continue
                if meta_call is not None and _passes_values(info.calls, callee):
                    known_call = calls.get(meta_call)
                    if known_call is None or (certain and not known_call[0]):
                        calls[meta_call] = (certain, f"{made.qualname} {why}", function.scope)
                if not module_class:
                    continue
                for init in chain:
                    known = found.get(init)
                    if known is None or (certain and not known[0]):
                        found[init] = (certain, f"{made.qualname} {why}")
    eager: dict[str, list[ScopedFunction]] = {}
    for path, functions in scoped.items():
        for function in functions:
            ref = DefinitionRef(module_of[path], function.qualname)
            entry, caller = found.get(ref), frames.get(ref)
            if entry is None and caller is None:
                continue
            if entry is not None:
                certainty = "certain" if entry[0] else "maybe"
                function = replace(function, eager_init=f"{certainty} {entry[1]}")
            if caller is not None:
                certainty = "certain" if caller[0] else "maybe"
                function = replace(function, eager_frame=f"{certainty} {caller[1]}")
            eager.setdefault(path, []).append(function)
    for call, (_, why, scope) in calls.items():
        info = project.function(call)
        if info is None:
            continue
        # Whether its arguments hold a tensor, which decides whether Dynamo compiles the frame,
        # is not known here: a warning.
        certainty = "maybe"
        frame = ScopedFunction(
            call.qualname,
            info.start_line,
            Scope(scope.root, reached=scope.root is not None),
            eager_call=f"{certainty} {why}",
        )
        eager.setdefault(project.by_module[call.module].path, []).append(frame)
    return eager


def _passes_values(calls: Sequence[str], callee: str) -> bool:
    """Whether a call of `callee` (by the summaries of its calls, `FunctionInfo.calls`) passes
    something other than constants: Dynamo compiles a frame only where its arguments may hold
    a tensor, and runs one that gets only constants (`Scale(2.0)`) as it is."""
    constants = {"N", "0", "1"}
    for call in calls:
        head, _, arguments = call.partition(" ")
        if head == callee and any(
            part.rpartition("=")[2] not in constants for part in arguments.split()
        ):
            return True
    return False


def _module_inits(project: Project, cls: DefinitionRef) -> list[DefinitionRef]:
    """The project `__init__`s that making an instance of `cls` runs: the nearest, and those
    its `super().__init__(...)` reaches in turn."""
    chain = []
    for owner in project.base_classes(cls):
        init = DefinitionRef(owner.module, f"{owner.qualname}.__init__")
        info = project.function(init)
        if info is None:
            continue
        chain.append(init)
        if "super().__init__" not in info.callees:
            break
    return chain


def recheck_file(
    path: str,
    index: ModuleIndex,
    functions: Sequence[ScopedFunction],
    codes: frozenset[str],
    text: str | None = None,
) -> list[Finding]:
    """Check the functions whose project-wide scope differs from the file's own (in `text`,
    when given, as `check_file`), with the file's `index` from its check: the file is parsed
    again, not indexed again."""
    with collector_paused():
        return _recheck_file(path, index, functions, codes, text)


def _recheck_file(
    path: str,
    index: ModuleIndex,
    functions: Sequence[ScopedFunction],
    codes: frozenset[str],
    unsaved: str | None,
) -> list[Finding]:
    parsed = _parse(path, [], unsaved, index)
    if isinstance(parsed, FileResult):  # the file changed or vanished since it was indexed
        return parsed.problems
    text, tree, index, nodes = parsed
    source = LazyLines(text)
    with deep_recursion():
        checked = check_functions(path, source, nodes, functions, codes, index)
    findings = [f for c in checked for f in c.findings]
    return Suppressions(text, source.lines, tree).apply(findings) if findings else []


def _parse(
    path: str, package: list[str], unsaved: str | None, indexed: ModuleIndex | None = None
) -> FileResult | tuple[str, ast.Module, ModuleIndex, Nodes]:
    """The file's text, tree, index and the nodes of the functions the index holds; `indexed`:
    its index, known already (the file is then only parsed)."""
    text = read_source(path) if unsaved is None else unsaved
    if isinstance(text, Unreadable):
        return FileResult(path, None, [_parse_error(path, text.line, 1, text.message)], [])
    if is_skipped(text):
        return FileResult(path, None, [], [])
    try:
        tree = parse_tree(text, path)
        nodes: Nodes = {}
        if indexed is None:
            index = _index(path, text, tree, package, nodes)
        else:
            index, nodes = indexed, _indexed_nodes(tree, indexed)
    except SyntaxError as error:
        line, column = error.lineno or 1, error.offset or 1
        problem = _parse_error(path, line, column, f"SyntaxError: {error.msg}")
    except ValueError as error:  # e.g. a null byte in the source
        problem = _parse_error(path, 1, 1, f"cannot parse file: {error}")
    except (RecursionError, MemoryError):
        problem = _too_deep(path, "this file", 1)
    except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
        problem = _internal_error(path, error, 1)
    else:
        return text, tree, index, nodes
    return FileResult(path, None, [problem], [])


def _index(path: str, text: str, tree: ast.Module, package: list[str], nodes: Nodes) -> ModuleIndex:
    """Index a parsed file, raising what compiling it raises: the index walk tells whether
    the compiler may reject it (`breaklint.compile_stage`), and only then is it compiled.

    The walk's recursion is bounded at half the recursion a compile has: each level of the
    tree takes at least one frame, so a tree the walk finishes is too shallow to exhaust the
    compiler's; a deeper one is compiled, then indexed again with room to recurse."""
    stage = CompileStage(tree, text)
    try:
        with recursion_limit(stack_depth() + sys.getrecursionlimit() // 2):
            index = build_index(path, tree, package, nodes, stage)
    except RecursionError:
        compile_tree(tree, text, path)
        nodes.clear()
        with deep_recursion():
            return build_index(path, tree, package, nodes)
    except Exception:
        compile_tree(tree, text, path)  # code Python refuses is a BL001, whatever else failed
        raise
    if stage.needs_compile:
        compile_tree(tree, text, path)
    return index


def _indexed_nodes(tree: ast.Module, index: ModuleIndex) -> Nodes:
    """The node of each function the index holds, found by the line it starts on (its first
    decorator's, `FunctionInfo.start_line`): no two definitions start on one line. Statements
    are read, not expressions, and no function's body: the index holds no definition made in
    one."""
    by_line: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            by_line[min([node.lineno, *(d.lineno for d in node.decorator_list)])] = node
            continue
        for block in _BLOCKS:
            pending.extend(getattr(node, block, ()))
    return {
        qualname: by_line[info.start_line]
        for qualname, info in index.functions.items()
        if info.start_line in by_line
    }


# The fields of statements that hold statements (a `try`'s handlers and a `match`'s cases hold
# them in their `body`).
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _parse_error(path: str, line: int, column: int, message: str) -> Finding:
    """A file (or a function) that cannot be read or parsed: nothing in it was checked."""
    return all_rules()[PARSE_ERROR].finding(path, line, column, message=message)


def _too_deep(path: str, what: str, line: int) -> Finding:
    """`what` (the file, a function) nests deeper than the parser or the rules recurse."""
    message = f"{what} is nested too deeply to analyse; nothing in it was checked"
    return _parse_error(path, line, 1, message)


def _internal_error(path: str, error: Exception, line: int) -> Finding:
    """breaklint failed on this code: a bug, reported here while the rest is still checked."""
    rule = all_rules()[INTERNAL_ERROR]
    detail = f"{type(error).__name__}: {error}".splitlines()[0]
    return rule.finding(path, line, 1, message=f"{rule.message} ({detail})")


def check_functions(
    path: str,
    source: LazyLines,
    nodes: Nodes,
    functions: Sequence[ScopedFunction],
    codes: frozenset[str],
    index: ModuleIndex,
) -> list[CheckedFunction]:
    """Run the enabled rules over each function in scope."""
    rules = [
        rule for code, rule in all_rules().items() if code in codes and rule.phase is Phase.STATIC
    ]
    checked = []
    definitions = frozenset(
        name.partition("@")[0] for name in [*index.classes, *index.functions] if "." not in name
    )
    assignments: dict[str, SelfAssignments] = {}
    methods: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] | None = None
    for function in functions:
        try:
            node = nodes[function.qualname]
            owner = function.qualname.rpartition(".")[0]
            if owner not in assignments:
                if methods is None:
                    methods = _methods_by_owner(nodes)
                assignments[owner] = SelfAssignments(methods.get(owner, []), index.imports)
            # The names its own imports bind (`import numpy as np` in its body) are its alone.
            imports = index.functions[function.qualname].import_table(index.imports)
            module = _Module(imports, definitions, index.type_aliases, index.flags)
            findings = _check_function(
                path, function, node, module, source, rules, assignments[owner]
            )
        except (RecursionError, MemoryError):
            what = f"`{function.qualname}`"
            findings = [_too_deep(path, what, function.start_line)]
        except Exception as error:  # a bug in breaklint: report it here, keep checking the rest
            findings = [_internal_error(path, error, function.start_line)]
        checked.append(CheckedFunction(function, findings))
    return checked


def _methods_by_owner(nodes: Nodes) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The functions defined directly in each class (by qualified name), in one pass: a scan
    of every node per class was quadratic in the size of the file."""
    owners: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for qualname, node in nodes.items():
        owner = qualname.rpartition(".")[0]
        if owner:
            owners.setdefault(owner, []).append(node)
    return owners


@dataclass(frozen=True, slots=True)
class _Module:
    """What the checks of a function need from its module."""

    imports: dict[str, str]  # the function's own imports included
    definitions: frozenset[str]  # top-level classes and functions
    type_aliases: dict[str, str]
    flags: dict[str, bool] = field(default_factory=dict)  # `ModuleIndex.flags`


def _check_function(
    path: str,
    function: ScopedFunction,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    module: _Module,
    source: LazyLines,
    rules: list[type[Rule]],
    self_assignments: SelfAssignments,
) -> list[Finding]:
    """The findings of one function in scope."""
    reports = []
    imports = module.imports
    lines = source.lines
    text = "".join(lines[node.lineno - 1 : node.end_lineno])
    # The walk visits the decorators too: their lines are the function's code.
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    code = "".join(lines[first - 1 : node.lineno - 1]) + text
    outline = Outline.of(code, imports, function, self_assignments)
    rules = rules_for(rules, outline)
    if not rules:
        return []  # nothing it holds can be reported: no walk
    # The outline's words are those of `code` (and more): a superset of `text`'s.
    used_as_tensors = names_used_as_tensors(text, imports, outline.words)
    used_as_sparse = names_used_as_sparse(text, outline.words, imports)
    for target in _traced_parts(node, function.inner_only):
        facts = FunctionFacts(
            imports,
            root=function.root,
            guard_calls=frozenset(function.guard_calls),
            false_calls=frozenset(function.false_calls),
            tensor_calls=frozenset(function.tensor_calls),
            used_as_tensors=used_as_tensors,
            used_as_sparse=used_as_sparse,
            parameter_kinds=_pairs(function.parameter_kinds),
            call_kinds=_pairs(function.call_kinds),
            attribute_kinds=_pairs(function.attribute_kinds),
            project_calls=frozenset(function.project_calls),
            definitions=module.definitions,
            type_aliases=module.type_aliases,
            held_objects=_pairs(function.held_objects),
            unenterable_calls=_pairs(function.unenterable_calls),
            breaking_calls=_pairs(function.breaking_calls),
            new_object_calls=frozenset(function.new_object_calls),
            method_holders=frozenset(function.method_holders),
            optional_key_dicts=frozenset(function.optional_key_dicts),
            uncallable_calls=_pairs(function.uncallable_calls),
            module_method=function.module_method,
            eager_init=function.eager_init,
            eager_call=function.eager_call,
            eager_frame=function.eager_frame,
            module_flags=module.flags,
        )
        context = RuleContext(
            path,
            function.qualname,
            function.scope,
            imports,
            facts,
            source,
            target,
            function.disabled_calls,
            self_assignments,
            cached_reads=function.cached_reads,
            dependency_breaks=function.dependency_breaks,
        )
        visitors = [rule(context) for rule in rules]
        # The facts visitor goes first so that rules see names bound before the node they visit.
        # Not its own annotations, which run where it is defined, not in its frame.
        walk(target, [facts, *visitors], annotations=False)
        reports.extend(collect_reports(visitors))
        # The rules observing reports and their context form a cycle: broken here, the
        # function's nodes they hold are freed now, not by a pass of the cyclic collector.
        context.observers.clear()
    if not reports:
        return []
    findings = []
    for report in reports:
        where = cast(ast.expr | ast.stmt, report.node)  # rules report nodes with a position
        line = where.lineno
        end_line = where.end_lineno if where.end_lineno is not None else line
        end_offset = where.end_col_offset if where.end_col_offset is not None else where.col_offset
        findings.append(
            all_rules()[report.code].finding(
                path,
                line,
                column(lines[line - 1], where.col_offset),
                end_line,
                column(lines[end_line - 1], end_offset),
                message=report.message,
                severity=report.severity,
                hint=report.hint,
                scope=function.scope,
                fix=report.fix,
                guarded=report.guarded,
            )
        )
    for rule in rules:
        findings.extend(rule.function_findings(path, function, reports, lines))
    return findings


def _pairs(entries: tuple[str, ...]) -> dict[str, str]:
    """`("x=tensor", ...)` as a mapping."""
    found = {}
    for entry in entries:
        name, _, kind = entry.partition("=")
        found[name] = kind
    return found


def _traced_parts(
    node: ast.FunctionDef | ast.AsyncFunctionDef, inner_only: tuple[str, ...] | None
) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The function itself, or the outermost functions nested in it that Dynamo traces."""
    if inner_only is None:
        return [node]
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    pending: list[ast.AST] = list(reversed(node.body))
    while pending:
        child = pending.pop()
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and (
            not inner_only or child.name in inner_only
        ):
            found.append(child)
            continue
        pending.extend(reversed(list(ast.iter_child_nodes(child))))
    return found
