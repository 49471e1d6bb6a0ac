"""The fix engine: each rule's libcst rewrite applied to the node its finding targets.

Rules decide on `ast` while linting whether a fix applies (`breaklint.fixes`); this module,
the only one that imports libcst, makes the rewrites when edits are needed: `--fix` writes
them (atomically), `--diff` shows them, JSON and SARIF carry them as text edits. libcst keeps
every comment and formatting choice outside the rewritten node.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import difflib
import hashlib
import itertools
import os
import stat
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from breaklint import rewrites
from breaklint.findings import Edit, Finding, Range
from breaklint.rewrites import Rewritten
from breaklint.rule import Rule, all_rules
from breaklint.source import (
    collector_paused,
    decode_source,
    kind_of,
    read_regular,
    source_lines,
)


@dataclass(slots=True)
class Rewrite:
    """The fixes applied to one file's text."""

    text: str
    applied: list[Finding] = field(default_factory=list)
    left: list[Finding] = field(default_factory=list)  # another fix rewrote the same node
    declined: list[Finding] = field(default_factory=list)  # the node was not as promised


@dataclass(slots=True)
class FileFix:
    path: str
    encoding: str
    original: str
    fixed: str
    applied: list[Finding]  # the findings whose fixes this file's new text holds


@dataclass(slots=True)
class FixPlan:
    files: list[FileFix] = field(default_factory=list)  # files whose text changes
    left: int = 0  # fixes of a node another fix rewrote: another run applies them
    problems: dict[str, str] = field(default_factory=dict)  # files left alone, and why
    # Files left alone by design, findings kept (no error): a symlink out of the linted tree,
    # code nested too deeply for libcst.
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def applied(self) -> int:
        return sum(len(f.applied) for f in self.files)


class FixError(Exception):
    """The file cannot be rewritten: libcst cannot parse it, or a fix broke its syntax."""


class TooDeep(FixError):
    """libcst ran out of recursion on the file (a long chain of operators that Python itself
    compiles): its fixes are left out, its findings stay."""

    def __init__(self) -> None:
        super().__init__("nested too deeply for libcst to rewrite: its fixes are left out")


def parsed_file(text: str, offset: int = 0) -> ParsedFile:
    """`ParsedFile(text, offset)`, TooDeep when libcst recurses too deep on it."""
    try:
        return ParsedFile(text, offset)
    except RecursionError:
        raise TooDeep() from None


def _rewritten(parsed: ParsedFile, findings: Sequence[Finding], *, imports: bool = True) -> Rewrite:
    """`parsed.rewrite(findings, imports=imports)` checked (`_checked`); TooDeep when libcst
    recurses too deep."""
    try:
        return _checked(parsed.rewrite(findings, imports=imports))
    except RecursionError:
        raise TooDeep() from None


_Span = tuple[int, int, int, int]  # a `Range` as a tuple: hashed many times faster


def _span(target: Range) -> _Span:
    return (target.line, target.column, target.end_line, target.end_column)


class ParsedFile:
    """A file, or a part of one, parsed once by libcst, with its nodes indexed by their
    position in the file (a part's line + `offset`)."""

    def __init__(self, text: str, offset: int = 0) -> None:
        self.text = text
        self.offset = offset
        # libcst drops the last of a file's lone `\r` line endings: such a file is parsed with
        # `\n` (one for one, so positions hold) and written back with `\r`.
        self.old_mac = "\r" in text and "\n" not in text
        parsed = text.replace("\r", "\n") if self.old_mac else text
        try:
            self.module = cst.parse_module(parsed)
        except cst.ParserSyntaxError as error:
            raise FixError(f"libcst cannot parse it ({error.message})") from error
        # One code generation gives both the text back and every node's position (what
        # `MetadataWrapper.resolve(PositionProvider)` gives, without its second walk of the
        # tree for batchable providers, of which there are none here).
        provider = PositionProvider()
        provider._computed = {}
        state = PositionProvidingCodegenState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            provider=provider,
        )
        try:
            self.module._codegen(state)
        except KeyError as error:
            # Out of recursion, libcst's position bookkeeping fails again in every frame it
            # unwinds (a KeyError for the child it never finished): the cause is the recursion.
            if not _unwinding_recursion(error):
                raise
            raise RecursionError("libcst's code generation") from None
        if "".join(state.tokens) != parsed:  # never write a file libcst would not give back
            raise FixError("libcst does not give its text back exactly (mixed line endings?)")
        # Each node's (line, column, end line, end column) in the file, 1-based columns.
        self._spans: dict[cst.CSTNode, _Span] = {}
        # Several nodes can span one position (a block, its only statement, the call that is
        # that statement): a rewrite is tried on each, innermost first, until one takes it.
        self._at: dict[_Span, list[cst.CSTNode]] = defaultdict(list)
        offset = self.offset
        positions = cast(dict[cst.CSTNode, CodeRange], provider._computed)
        for node, where in positions.items():
            start, end = where.start, where.end
            span = (start.line + offset, start.column + 1, end.line + offset, end.column + 1)
            self._at[span].append(node)
            self._spans[node] = span

    def rewrite(self, findings: Sequence[Finding], *, imports: bool = True) -> Rewrite:
        """The text with the fixes of `findings` applied, each by its rule, and the imports
        where a fix made needs it (unless not `imports`: a part of a file has no imports)."""
        candidates: dict[int, list[Finding]] = defaultdict(list)
        for finding in findings:
            assert finding.fix is not None
            for node in self._at.get(_span(finding.fix.target), ()):
                candidates[id(node)].append(finding)
        targets = [_span(f.fix.target) for f in findings if f.fix is not None]
        transformer = _Rewriter(candidates, all_rules(), self._spans, targets)
        module = self.module.visit(transformer)
        result = Rewrite(self.text, transformer.applied, transformer.left)
        result.declined = [f for f in findings if id(f) not in transformer.done]
        modules = _added_modules(result.applied)
        if imports and modules:
            module = _with_imports(module, modules)
        result.text = module.code.replace("\n", "\r") if self.old_mac else module.code
        return result


def _added_modules(findings: Iterable[Finding]) -> tuple[str, ...]:
    """The modules the fixes of `findings` import, each once, in the order they first name
    them: every fix that imports one carries the edits of all (the same lines)."""
    named = (m for f in findings if f.fix is not None for m in f.fix.added_modules)
    return tuple(dict.fromkeys(named))


def _with_imports(module: cst.Module, modules: Sequence[str]) -> cst.Module:
    """`module` with `import M` for each of `modules` (`torch`, `contextlib`), added as
    libcst's AddImportsVisitor adds them (after the
    imports that open the module). That visitor copies and walks the whole tree, most of the
    cost of edits on large files, yet reads only the statements up to the first that follows
    the opening imports, and of that one (or of a compound statement first in the file) only
    the empty lines and comments above it: it is handed those statements, such a statement as
    a `pass` with its lines above."""
    body = module.body
    end = 1  # past the docstring, or whatever statement comes first
    while end < len(body) and _is_import(body[end]):
        end += 1
    head = body[: end + 1]
    stand_ins = {
        i
        for i, statement in enumerate(head)
        if not _is_import(statement) and (i or isinstance(statement, cst.BaseCompoundStatement))
    }
    shown = [
        cst.SimpleStatementLine([cst.Pass()], leading_lines=s.leading_lines)
        if i in stand_ins
        else s
        for i, s in enumerate(head)
    ]
    context = CodemodContext()
    for name in modules:
        AddImportsVisitor.add_needed_import(context, name)
    added = AddImportsVisitor(context).transform_module(module.with_changes(body=shown)).body
    # The imports go in before the stand-ins, which keep their places from the end.
    shift = len(added) - len(head)
    merged = [
        head[i - shift].with_changes(leading_lines=s.leading_lines) if i - shift in stand_ins else s
        for i, s in enumerate(added)
    ]
    return module.with_changes(body=[*merged, *body[end + 1 :]])


def _unwinding_recursion(error: BaseException) -> bool:
    """Whether `error` was raised while a RecursionError was being handled."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, RecursionError):
            return True
        cause = cause.__context__
    return False


def _is_import(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Import | cst.ImportFrom)
    )


class _Rewriter(cst.CSTTransformer):
    """Makes the rewrites, descending only into nodes whose span holds a fix's target: libcst
    rebuilds every node it visits, and the rest of the tree is left as it is."""

    def __init__(
        self,
        candidates: dict[int, list[Finding]],
        rules: dict[str, type[Rule]],
        spans: Mapping[cst.CSTNode, _Span],
        targets: Sequence[_Span],
    ) -> None:
        super().__init__()
        self.candidates = candidates  # by node id: the findings whose target the node spans
        self.rules = rules
        self.spans = spans  # each node's
        self.targets = targets  # the fixes'
        self.done: set[int] = set()  # ids of the findings a rewrite took
        self.applied: list[Finding] = []
        self.left: list[Finding] = []  # another fix rewrote the same node first
        self.removed: set[int] = set()  # original statements a rewrite took out

    def on_visit(self, node: cst.CSTNode) -> bool:
        span = self.spans.get(node)
        if span is None:  # no position (whitespace, a sentinel): descend, to be safe
            return True
        line, column, end_line, end_column = span
        return any(
            (line, column) <= (t_line, t_column) and (t_end, t_end_column) <= (end_line, end_column)
            for t_line, t_column, t_end, t_end_column in self.targets
        )

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass  # no hooks on attributes: skip libcst's lookup of one per attribute

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Rewritten:  # type: ignore[override]
        updated_node = rewrites.keep_block_valid(original_node, updated_node, self.removed)
        waiting = [f for f in self.candidates.get(id(original_node), ()) if id(f) not in self.done]
        if not waiting:
            return updated_node
        first = waiting[0]
        assert first.fix is not None
        replacement = rewrites.rewritten(self.rules[first.code].rewrites, updated_node, first.fix)
        if replacement is None:
            return updated_node  # not this node's shape: an outer node at the same place may be
        for finding in waiting:  # the same rewrite asked twice is made once
            self.done.add(id(finding))
            # (a rewrite any rule may make, carried by another rule's finding, is the same)
            shared = first.fix.rewrite in rewrites.SHARED
            same = finding.fix == first.fix and (finding.code == first.code or shared)
            (self.applied if same else self.left).append(finding)
        if isinstance(replacement, cst.RemovalSentinel):
            self.removed.add(id(original_node))
        return replacement


def plan_fixes(
    findings: Iterable[Finding],
    *,
    unsafe: bool,
    linted: Mapping[str, str | None] | None = None,
    trees: Sequence[str] | None = None,
) -> FixPlan:
    """The new text of every file that applicable fixes change (nothing is written).

    `linted`: the SHA-256 of each file's bytes when it was linted; a file that no longer holds
    them changed on disk and is left alone. `trees`: the real paths of the linted folders; a
    file that resolves outside them (a symlink out of the tree) is linted but not fixed."""
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.fix is not None and finding.fix.applies(unsafe):
            by_path[finding.path].append(finding)
    plan = FixPlan()
    for path, fixable in sorted(by_path.items()):
        if trees is not None and not inside(path, trees):
            target = os.path.realpath(path)
            plan.notes[path] = f"not fixed: it resolves to '{target}', outside the linted tree"
            continue
        try:
            data = read_regular(path)
            original, encoding = decode_source(data)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError) as error:
            plan.problems[path] = f"cannot read it again to fix it ({error})"
            continue
        if linted is not None and linted.get(path) not in (None, hashlib.sha256(data).hexdigest()):
            plan.problems[path] = "it changed on disk since it was linted; left unchanged"
            continue
        try:
            rewrite = _rewritten(parsed_file(original), fixable)
        except TooDeep as error:
            plan.notes[path] = f"{error}; its findings stay"
            continue
        except FixError as error:
            plan.problems[path] = f"{error}; left unchanged"
            continue
        plan.left += len(rewrite.left)
        if rewrite.text != original:
            plan.files.append(FileFix(path, encoding, original, rewrite.text, rewrite.applied))
    return plan


def _checked(rewrite: Rewrite) -> Rewrite:
    """The rewrite, or FixError if a fix promised while linting did not apply (a breaklint
    bug, reported rather than hidden) or the result would not parse."""
    if rewrite.declined:
        where = ", ".join(f"{f.code} at line {f.line}" for f in rewrite.declined)
        raise FixError(f"breaklint could not make the fix it announced ({where}); please report")
    try:
        ast.parse(rewrite.text)
    except (SyntaxError, ValueError) as error:  # never write broken code
        raise FixError(f"the fixes would not parse ({error})") from error
    return rewrite


def fixed_text(text: str, findings: Sequence[Finding]) -> str:
    """`text` with the fixes of `findings` (all of that text) made; FixError (or TooDeep) when
    they cannot be. For an editor's buffer, which `plan_fixes` does not read."""
    return _rewritten(parsed_file(text), findings).text


def with_edits(
    findings: Sequence[Finding],
    notes: dict[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
    jobs: int = 1,
) -> list[Finding]:
    """`findings` with each fix's text edits, for formats that carry them. A file's fixes are
    made together, once; each fix gets the changed lines that overlap its target (and an
    added import, if it needs one). A fix that cannot be made now (the file changed since it
    was linted) is dropped rather than shown; `notes` gets why for a file whose fixes libcst
    cannot make at all. `texts`: what some files hold instead of what is on disk (an editor's
    unsaved buffers), by path. Files are shared among `jobs` processes."""
    by_path: dict[str, list[int]] = defaultdict(list)
    for index, finding in enumerate(findings):
        if finding.fix is not None:
            by_path[finding.path].append(index)
    files = [
        _FileEdits(path, [findings[i] for i in indices], (texts or {}).get(path))
        for path, indices in by_path.items()
    ]
    result = list(findings)
    done = zip(files, by_path.values(), _each(files, jobs), strict=True)
    for file, indices, (made, note) in done:
        if note is not None and notes is not None:
            notes[file.path] = note
        for index, edits in zip(indices, made, strict=True):
            fix = result[index].fix
            assert fix is not None
            result[index] = dataclasses.replace(
                result[index], fix=dataclasses.replace(fix, edits=edits) if edits else None
            )
    return result


@dataclass(frozen=True, slots=True)
class _FileEdits:
    """The edits of one file's fixes: picklable, for a worker process."""

    path: str
    findings: list[Finding]
    text: str | None  # an editor's buffer, instead of the file

    def run(self) -> tuple[list[tuple[Edit, ...]], str | None]:
        """Each finding's edits, in order (() for a fix not made), and a note when libcst
        cannot make the file's fixes at all."""
        try:
            with collector_paused():  # libcst's many objects, freed when the file is done
                made = _edits_by_finding(self.path, self.findings, self.text)
        except TooDeep as error:
            return [()] * len(self.findings), f"{error}; its findings stay"
        return [made.get(id(finding), ()) for finding in self.findings], None


_POOL_MIN_FILES = 8  # below this, starting workers costs more than it saves


def _each(files: list[_FileEdits], jobs: int) -> list[tuple[list[tuple[Edit, ...]], str | None]]:
    """`run` of each file, in `jobs` processes when there are enough files."""
    if jobs <= 1 or len(files) < _POOL_MIN_FILES or os.name != "posix":
        return [file.run() for file in files]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Forked: the workers start with libcst and the rules imported. The files with the most
    # fixes go first, so that no worker is left with a big one at the end while others idle.
    context = multiprocessing.get_context("fork")
    order = sorted(range(len(files)), key=lambda i: -len(files[i].findings))
    try:
        with ProcessPoolExecutor(min(jobs, len(files)), mp_context=context) as pool:
            made = dict(
                zip(order, pool.map(_FileEdits.run, [files[i] for i in order]), strict=True)
            )
            return [made[i] for i in range(len(files))]
    except BrokenProcessPool:  # a worker killed (out of memory?): this process makes them
        return [file.run() for file in files]


def _edits_by_finding(
    path: str, findings: list[Finding], text: str | None
) -> dict[int, tuple[Edit, ...]]:
    """Each made fix's edits, by the finding's id, in the file or in `text` (an editor's
    buffer for it). libcst (ten times the cost of `ast`) parses only the functions that hold
    the fixes, each once, and the file's opening statements when a fix adds an import;
    the whole file once when a fix lies outside any function or the opening statements
    cannot be taken alone. TooDeep when libcst recurses too deep."""
    if text is None:
        try:
            text = decode_source(read_regular(path))[0]
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            return {}
    split = _function_parts(text, findings)
    if split is not None:
        parts, head = split
        edits: dict[int, tuple[Edit, ...]] = {}
        for (part, offset), held in parts.items():
            made = _edits_in(part, offset, held, imports=False)
            if made is None:  # libcst cannot take the part alone: take the file
                break
            edits |= made
        else:
            importing = [f for f in findings if id(f) in edits and _adds_import(f)]
            if not importing:
                return edits
            modules = _added_modules(importing)
            added = _import_edits(head, modules) if head is not None else None
            if added is not None:
                for finding in importing:
                    own = [*edits[id(finding)], *added]
                    edits[id(finding)] = tuple(sorted(own, key=lambda change: change.line))
                return edits
    return _edits_in(text, 0, findings) or {}


def _function_parts(
    text: str, findings: list[Finding]
) -> tuple[dict[tuple[str, int], list[Finding]], str | None] | None:
    """The findings by the outermost function that holds each one's fix, as the text libcst
    parses (the function's lines as they are, decorators included, under an `if 1:` header
    when indented) and the offset from its lines to the file's; and, when a fix adds an
    import, the file's opening statements (`_opening_statements`). None when a fix
    needs the whole file."""
    if any(f.fix is None for f in findings):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    functions: list[tuple[int, int]] = []  # (first line, last line)
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            functions.append((first, node.end_lineno or node.lineno))
        elif isinstance(node, ast.Module | ast.ClassDef | ast.If | ast.Try):
            pending.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt))
    lines = source_lines(text)
    parts: dict[tuple[str, int], list[Finding]] = {}
    for finding in findings:
        assert finding.fix is not None
        target = finding.fix.target
        held = [(a, b) for a, b in functions if a <= target.line and target.end_line <= b]
        if not held:
            return None
        first, last = held[0]
        part = "".join(lines[first - 1 : last])
        if part[:1] in (" ", "\t"):  # an indented block needs a statement to belong to
            ending = lines[first - 1][len(lines[first - 1].rstrip("\r\n")) :]
            part, first = f"if 1:{ending}{part}", first - 1
        parts.setdefault((part, first - 1), []).append(finding)
    head = _opening_statements(tree, lines) if any(map(_adds_import, findings)) else None
    return parts, head


def _adds_import(finding: Finding) -> bool:
    return finding.fix is not None and bool(finding.fix.added_modules)


def _import_edits(head: str, modules: Sequence[str]) -> tuple[Edit, ...] | None:
    """The edits that add `import M` for each of `modules` to a file, from its opening
    statements (`head`, see `_opening_statements`) alone: they are all `_with_imports` reads.
    None when libcst cannot take them alone."""
    try:
        parsed = parsed_file(head)
        added = _with_imports(parsed.module, modules).code
    except (FixError, RecursionError):  # the whole file's rewrite tells why
        return None
    return line_edits(head, added.replace("\n", "\r") if parsed.old_mac else added)


# Statements that hold others: `_with_imports` shows the first in a file as a stand-in.
_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor,
    ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match,
)  # fmt: skip


def _opening_statements(tree: ast.Module, lines: list[str]) -> str | None:
    """What `_with_imports` reads of a file, as text: its first statement, the imports
    after it, and the empty lines and comments above the statement that follows them, then a
    `pass` in that statement's place. None where libcst would see other statements than
    `ast` does (two on one line) or the first statement is compound (shown as a stand-in)."""
    body = tree.body
    end = 1
    while end < len(body) and isinstance(body[end], ast.Import | ast.ImportFrom):
        end += 1
    opening = body[: end + 1]
    if isinstance(body[0], _COMPOUND) or any(
        (before.end_lineno or before.lineno) >= after.lineno
        for before, after in itertools.pairwise(opening)
    ):
        return None
    if end == len(body):
        return "".join(lines)
    following = body[end]
    first = min([following.lineno, *(d.lineno for d in getattr(following, "decorator_list", []))])
    above = lines[: first - 1]
    ending = above[-1][len(above[-1].rstrip("\r\n")) :] if above else "\n"
    return "".join(above) + "pass" + (ending or "\n")


def _edits_in(
    text: str, offset: int, findings: list[Finding], *, imports: bool = True
) -> dict[int, tuple[Edit, ...]] | None:
    """The edits of the fixes made in `text` (the file's lines from `offset` + 1 on), in the
    file's lines: from one rewrite of them all, and from a rewrite of its own for a fix whose
    changed lines run into another fix's; with the imports a fix needs, unless
    not `imports` (a part of a file). None when libcst cannot parse the text."""
    try:
        parsed = parsed_file(text, offset)
    except TooDeep:
        raise
    except FixError:
        return None
    try:
        rewrite = _rewritten(parsed, findings, imports=imports)
    except TooDeep:
        raise
    except FixError:
        return {}
    changes = line_edits(parsed.text, rewrite.text, parsed.offset)
    targets = {id(f): f.fix.target for f in rewrite.applied if f.fix is not None}
    touching = {
        key: [change for change in changes if _overlaps(change, target)]
        for key, target in targets.items()
    }
    owners: Counter[int] = Counter(id(change) for found in touching.values() for change in found)
    unowned = tuple(change for change in changes if not owners[id(change)])  # the import
    edits = {}
    for finding in rewrite.applied:
        assert finding.fix is not None
        own = touching[id(finding)]
        if any(owners[id(change)] > 1 for change in own):  # adjacent fixes share lines
            try:
                alone = _rewritten(parsed, [finding], imports=imports).text
            except TooDeep:
                raise
            except FixError:
                continue
            own = list(line_edits(parsed.text, alone, parsed.offset))
        elif finding.fix.added_modules:
            own = own + list(unowned)
        edits[id(finding)] = tuple(sorted(own, key=lambda change: change.line))
    return edits


def _overlaps(change: Edit, target: Range) -> bool:
    """Whether a whole-line change touches the target's lines (the change's end line is
    exclusive; an insertion touches the line it goes before)."""
    return change.line <= target.end_line and target.line <= max(change.end_line - 1, change.line)


def line_edits(original: str, fixed: str, offset: int = 0) -> tuple[Edit, ...]:
    """The changes from `original` to `fixed` as whole-line edits, `offset` added to their
    lines."""
    before, after = source_lines(original), source_lines(fixed)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return tuple(
        Edit(first + 1 + offset, 1, last + 1 + offset, 1, "".join(after[new_first:new_last]))
        for tag, first, last, new_first, new_last in matcher.get_opcodes()
        if tag != "equal"
    )


def write_fixes(plan: FixPlan, trees: Sequence[str] | None = None) -> dict[str, str]:
    """Write each fixed file atomically; why each file that could not be written was not."""
    problems = {}
    for file in plan.files:
        try:
            data = file.fixed.encode(file.encoding)
            replace_file(file.path, data, expected=file.original, trees=trees)
        except NotWritable as error:
            problems[file.path] = f"{error}; left unchanged"
        except (OSError, UnicodeEncodeError) as error:
            problems[file.path] = f"cannot write the fixes ({error}); left unchanged"
        except ChangedOnDisk:
            problems[file.path] = "it changed on disk since it was read; left unchanged"
    return problems


class ChangedOnDisk(Exception):
    """The file no longer holds the text the fixes were made from."""


class NotWritable(Exception):
    """breaklint must not replace the file: read-only, outside the linted tree, not a regular
    file. Decided from the file's mode bits, not from a failed write: as root, or in a folder
    the user may write, a rename replaces a read-only file without any error."""


def inside(path: str, trees: Sequence[str]) -> bool:
    """Whether `path` resolves inside one of `trees` (real paths of folders)."""
    real = os.path.realpath(path)
    return any(real == tree or real.startswith(tree.rstrip(os.sep) + os.sep) for tree in trees)


def replace_file(
    path: str, data: bytes, *, expected: str | None = None, trees: Sequence[str] | None = None
) -> None:
    """Write through a temporary file in the same folder and rename it over the original, so
    the file is either the old or the new text, never half of each; keep its permissions.
    With `expected`, only if the file still holds that text (decoded); with `trees`, only if
    it resolves inside one of them. NotWritable for a read-only or special file."""
    target = os.path.realpath(path)  # a symlink keeps pointing at the fixed file
    if trees is not None and not inside(target, trees):
        raise NotWritable(f"'{target}' lies outside the linted tree")
    info = os.stat(target)
    if not stat.S_ISREG(info.st_mode):
        raise NotWritable(f"not a regular file ({kind_of(info.st_mode)})")
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
        target, os.W_OK
    ):
        raise NotWritable("the file is read-only")
    if expected is not None and decode_source(read_regular(target))[0] != expected:
        raise ChangedOnDisk(path)
    mode = stat.S_IMODE(info.st_mode)
    handle, temporary = tempfile.mkstemp(
        dir=os.path.dirname(target), prefix=".breaklint-", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def unified_diff(file: FileFix) -> str:
    """A diff `patch` and `git apply` take: no line for the empty text after the last line
    ending (`source_lines` numbers it), and a last line without an ending marked as such."""
    return "".join(
        line if line.endswith(("\n", "\r")) else f"{line}\n\\ No newline at end of file\n"
        for line in difflib.unified_diff(
            _diff_lines(file.original),
            _diff_lines(file.fixed),
            fromfile=f"a/{file.path}",
            tofile=f"b/{file.path}",
        )
    )


def _diff_lines(text: str) -> list[str]:
    lines = source_lines(text)
    return lines[:-1] if lines and not lines[-1] else lines
