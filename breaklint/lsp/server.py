"""The Language Server Protocol over stdio, on pygls: diagnostics as the editor's text is (on
open, on change after a pause, on save; pushed, or pulled by clients that ask), quick fixes,
fix-all, ignore comments, hover with the rule's page, and the probes on request.

Everything about projects (settings, files, findings, fixes) is `breaklint.lsp.project`'s;
this module turns it into the protocol's types.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import logging
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import PositionCodec, TextDocument

from breaklint import __version__
from breaklint.config import ConfigError, find_pyproject
from breaklint.findings import Edit, Finding, Severity, Status
from breaklint.lsp.project import Project
from breaklint.source import source_lines
from breaklint.suppression import noqa_codes_end

SOURCE = "breaklint"
DEBOUNCE_S = 0.15  # a pause in typing this long re-lints the unsaved text
FIX_ALL = "source.fixAll.breaklint"  # a kind of source.fixAll, as ruff has its own
RUN_PROBES = "breaklint.runProbes"
# The probes as a code action too: every client lists code actions, few run a command by name.
# It is offered as a bare Command, which clients (lsprotocol's among them) tell apart from a
# CodeAction by its `command` field.
RUN_PROBES_KIND = "source.runProbes.breaklint"
CONFIG_FILE = "pyproject.toml"

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}
_STATUS = {
    Status.CONFIRMED: "confirmed by a probe",
    Status.NOT_REPRODUCED: "not reproduced: a probe ran it without a break",
    Status.NOT_REACHED: "not reached by the probes",
}


@dataclass(frozen=True, slots=True)
class Linted:
    """A document's findings and the text they were found in."""

    text: str
    findings: list[Finding]


class BreaklintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("breaklint", __version__)
        self.projects: dict[str, Project] = {}  # by folder
        self.linted: dict[str, Linted] = {}  # by path, for the open documents
        self.unsafe_fixes = False  # the `unsafeFixes` setting
        self.pull = False  # the client asks for diagnostics (textDocument/diagnostic)
        self._pending: asyncio.Task[None] | None = None
        self._lint_lock = asyncio.Lock()
        self._shown: dict[str, str | None] = {}  # the configuration problem shown, by folder

    # Projects and documents

    def project_for(self, path: str) -> Project:
        """The project of a file: the deepest workspace folder holding it, else the folder of
        its configuration; else the file alone (its folder is not walked: it may be a home
        folder). Making one walks its files: not on the event loop."""
        uris = [*self.workspace.folders, *filter(None, [self.workspace.root_uri])]
        folders = [os.path.abspath(folder) for uri in uris if (folder := to_fs_path(uri))]
        holding = [f for f in folders if os.path.commonpath([f, path]) == f]
        config = None if holding else find_pyproject_safely(os.path.dirname(path))
        folder = max(holding, key=len) if holding else os.path.dirname(config or path)
        if folder not in self.projects:
            self.projects[folder] = Project(folder, walk=bool(holding or config))
        return self.projects[folder]

    def open_texts(self) -> dict[str, str]:
        """The text of every open Python document, by path."""
        texts = {}
        for document in list(self.workspace.text_documents.values()):
            path = _python_path(document)
            if path is not None:
                texts[path] = document.source
        return texts

    # Linting

    def schedule(self, delay: float) -> None:
        """Lint once typing pauses for `delay` seconds; a newer edit restarts the wait."""
        if self._pending is not None and not self._pending.done():
            self._pending.cancel()
        self._pending = asyncio.ensure_future(self._lint_later(delay))

    async def _lint_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self.lint_open()
        except Exception as crash:  # a bug in breaklint: say so, and keep serving
            logging.getLogger(__name__).exception("linting failed")
            message = f"breaklint: internal error: {type(crash).__name__}: {crash} (a bug)"
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, message))

    async def lint_open(self) -> None:
        """Lint the projects of the open documents with their texts; publish (push mode)."""
        async with self._lint_lock:
            texts = self.open_texts()
            projects = await asyncio.to_thread(self._projects_of, texts)
            found: dict[str, list[Finding]] = {}
            for project in projects:
                found |= await asyncio.to_thread(project.lint, texts)
            before = self.linted
            self.linted = {path: Linted(text, found.get(path, [])) for path, text in texts.items()}
        self._show_problems(projects)
        if not self.pull:
            for path in texts:
                self.publish(path)
        elif any(
            old.text == texts[path] and old.findings != self.linted[path].findings
            for path, old in before.items()
            if path in texts
        ):
            _refresh(self)  # another file's edit changed what an unchanged one shows

    def _projects_of(self, texts: dict[str, str]) -> list[Project]:
        return list({id(p): p for p in map(self.project_for, texts)}.values())

    def _show_problems(self, projects: Iterable[Project]) -> None:
        """Each project's configuration problem, once (until it changes)."""
        for project in projects:
            if project.problem and self._shown.get(project.folder) != project.problem:
                message = f"breaklint: {project.problem}"
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, message))
            self._shown[project.folder] = project.problem

    async def current(self, document: TextDocument) -> Linted | None:
        """The findings of a document as its text is now (linting it if it changed)."""
        path = _python_path(document)
        if path is None:
            return None
        linted = self.linted.get(path)
        if linted is None or linted.text != document.source:
            await self.lint_open()
            linted = self.linted.get(path)
        return linted

    def publish(self, path: str) -> None:
        uri = from_fs_path(path)
        linted = self.linted.get(path)
        if uri is None or linted is None:
            return
        document = self.workspace.get_text_document(uri)
        diagnostics = self.diagnostics(document, linted)
        version = document.version if document.source == linted.text else None
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def diagnostics(self, document: TextDocument, linted: Linted) -> list[lsp.Diagnostic]:
        lines = source_lines(linted.text)
        codec = document.position_codec
        definitions = _definitions(linted.text) if any(f.scope for f in linted.findings) else {}
        return [
            _diagnostic(finding, document.uri, lines, codec, definitions)
            for finding in linted.findings
        ]

    # Settings

    def configure(self, settings: object) -> None:
        """`unsafeFixes`, from initialization options or a configuration change, given alone
        or under a `breaklint` key."""
        if isinstance(settings, dict):
            settings = settings.get("breaklint", settings)
        if isinstance(settings, dict) and isinstance(settings.get("unsafeFixes"), bool):
            self.unsafe_fixes = settings["unsafeFixes"]

    def reload(self, changed: Iterable[str]) -> list[Project]:
        """Read the configuration and the file lists again where `changed` paths (a
        configuration, a Python file created or deleted) may alter them; the projects that
        did. It walks folders: not on the event loop."""
        changed = list(changed)
        reloaded = []
        for project in list(self.projects.values()):
            if any(project.holds(path) or path.endswith(CONFIG_FILE) for path in changed):
                project.reload()
                reloaded.append(project)
        return reloaded


def find_pyproject_safely(folder: str) -> str | None:
    from pathlib import Path

    try:
        found = find_pyproject(Path(folder))
    except ConfigError:
        return None
    return None if found is None else str(found)


def _python_path(document: TextDocument) -> str | None:
    if document.language_id not in (None, "python") or not document.uri.startswith("file:"):
        return None
    path = to_fs_path(document.uri)
    if path is None or (document.language_id is None and not path.endswith(".py")):
        return None
    return os.path.normpath(os.path.abspath(path))


# Conversions: breaklint counts lines from 1 and columns in characters from 1, the protocol
# from 0 in the units the client chose (UTF-16 by default).


def _position(lines: Sequence[str], codec: PositionCodec, line: int, column: int) -> lsp.Position:
    """The 1-based (line, column) in characters as the client counts; past the last line,
    the end of the text."""
    if line > len(lines):
        last = lines[-1] if lines else ""
        if not last or last.endswith(("\n", "\r")):
            return lsp.Position(len(lines) - 1 if last == "" else len(lines), 0)
        return lsp.Position(len(lines) - 1, codec.client_num_units(last))
    text = lines[line - 1] if line >= 1 else ""
    return lsp.Position(max(line - 1, 0), codec.client_num_units(text[: max(column - 1, 0)]))


def _range(
    lines: Sequence[str], codec: PositionCodec, start: tuple[int, int], end: tuple[int, int]
) -> lsp.Range:
    return lsp.Range(_position(lines, codec, *start), _position(lines, codec, *end))


def _finding_range(finding: Finding, lines: Sequence[str], codec: PositionCodec) -> lsp.Range:
    start, end = (finding.line, finding.column), (finding.end_line, finding.end_column)
    return _range(lines, codec, start, end)


def _text_edit(edit: Edit, lines: Sequence[str], codec: PositionCodec) -> lsp.TextEdit:
    start, end = (edit.line, edit.column), (edit.end_line, edit.end_column)
    return lsp.TextEdit(_range(lines, codec, start, end), edit.content)


@functools.lru_cache(maxsize=16)  # per text: publishing, pulling and code actions all ask
def _definitions(text: str) -> dict[str, tuple[int, int]]:
    """(line, column) of each function's name by qualified name, for the compile roots."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: dict[str, tuple[int, int]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                found.setdefault(name, (child.lineno, child.col_offset + 1))
                visit(child, f"{name}.")

    visit(tree, "")
    return found


def _diagnostic(
    finding: Finding,
    uri: str,
    lines: Sequence[str],
    codec: PositionCodec,
    definitions: dict[str, tuple[int, int]],
) -> lsp.Diagnostic:
    where = _finding_range(finding, lines, codec)
    message = finding.message
    if finding.status in _STATUS:
        message += f" ({_STATUS[finding.status]})"
    related = None
    if finding.scope is not None:
        root = finding.scope.root
        at = definitions.get(root or "") or next(
            (place for name, place in definitions.items() if root and root.endswith(f".{name}")),
            None,
        )
        location = lsp.Location(uri, where if at is None else _range(lines, codec, at, at))
        related = [lsp.DiagnosticRelatedInformation(location, f"compiled: {finding.scope.label()}")]
    not_reproduced = finding.status is Status.NOT_REPRODUCED
    return lsp.Diagnostic(
        range=where,
        message=message,
        severity=lsp.DiagnosticSeverity.Hint if not_reproduced else _SEVERITY[finding.severity],
        code=finding.code,
        code_description=lsp.CodeDescription(href=finding.url) if finding.url else None,
        source=SOURCE,
        related_information=related,
        data={"code": finding.code, "line": finding.line, "column": finding.column},
    )


def _overlaps(
    finding: Finding, wanted: lsp.Range, lines: Sequence[str], codec: PositionCodec
) -> bool:
    where = _finding_range(finding, lines, codec)
    before = (where.end.line, where.end.character) < (wanted.start.line, wanted.start.character)
    after = (where.start.line, where.start.character) > (wanted.end.line, wanted.end.character)
    return not before and not after


def ignore_edit(lines: Sequence[str], finding: Finding, codec: PositionCodec) -> lsp.TextEdit:
    """The edit that silences `finding` with `# noqa: CODE` on its line (added to a noqa
    comment already there)."""
    content = lines[finding.line - 1].rstrip("\r\n")
    end = noqa_codes_end(content)
    if end is not None:
        column = end + 1
        insert = f", {finding.code}"
    else:
        column = len(content.rstrip()) + 1
        insert = f"  # noqa: {finding.code}"
    at = _position(lines, codec, finding.line, column)
    return lsp.TextEdit(lsp.Range(at, at), insert)


def _hover_text(findings: Sequence[Finding]) -> str:
    from breaklint.rule import all_rules, why_title

    rules = all_rules()
    parts = []
    for finding in findings:
        rule = rules.get(finding.code)
        head = f"**{finding.code} {finding.name}** ({finding.severity.value}): {finding.message}"
        if rule is None:
            parts.append(head)
            continue
        sections = [
            head,
            f"**What it does**\n\n{rule.what.strip()}",
            f"**{why_title(rule)}**\n\n{rule.why.strip()}",
        ]
        if rule.use_instead.strip():
            sections.append(f"**Use instead**\n\n```python\n{rule.use_instead.strip()}\n```")
        if finding.hint:
            sections.append(f"Hint: {finding.hint}")
        sections.append(f"[{finding.code} rule page]({finding.url})")
        parts.append("\n\n".join(sections))
    return "\n\n---\n\n".join(parts)


def build_server() -> BreaklintServer:
    server = BreaklintServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: BreaklintServer, params: lsp.InitializeParams) -> None:
        ls.configure(params.initialization_options)
        document = params.capabilities.text_document
        ls.pull = document is not None and document.diagnostic is not None

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: BreaklintServer, params: lsp.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace else None
        if watched is None or not watched.dynamic_registration:
            return
        changes = lsp.WatchKind.Create | lsp.WatchKind.Change | lsp.WatchKind.Delete
        options = lsp.DidChangeWatchedFilesRegistrationOptions(
            watchers=[
                lsp.FileSystemWatcher(f"**/{CONFIG_FILE}", kind=changes),
                lsp.FileSystemWatcher("**/*.py", kind=lsp.WatchKind.Create | lsp.WatchKind.Delete),
            ]
        )
        registration = lsp.Registration(
            "breaklint-watch", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, options
        )
        ls.client_register_capability(lsp.RegistrationParams([registration]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: BreaklintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: BreaklintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        if not ls.pull:  # a pulling client asks when it wants them
            ls.schedule(DEBOUNCE_S)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: BreaklintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri) or ""
        if os.path.basename(path) == CONFIG_FILE:
            ls._show_problems(await asyncio.to_thread(ls.reload, [os.path.abspath(path)]))
        ls.schedule(0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: BreaklintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if path is not None:
            ls.linted.pop(os.path.abspath(path), None)
        if not ls.pull:  # a closed file's findings leave the Problems panel, as in ruff
            ls.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
            )

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: BreaklintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        paths = [os.path.abspath(to_fs_path(c.uri) or "") for c in params.changes]
        reloaded = await asyncio.to_thread(ls.reload, paths)
        if reloaded:
            ls._show_problems(reloaded)
            ls.schedule(0)
            _refresh(ls)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(ls: BreaklintServer, params: lsp.DidChangeConfigurationParams) -> None:
        ls.configure(params.settings)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders(ls: BreaklintServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        ls.projects.clear()  # a file may now belong to another folder's project
        ls.schedule(0)

    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False
        ),
    )
    async def pull_diagnostics(
        ls: BreaklintServer, params: lsp.DocumentDiagnosticParams
    ) -> lsp.DocumentDiagnosticReport:
        document = ls.workspace.get_text_document(params.text_document.uri)
        linted = await ls.current(document)
        items = [] if linted is None else ls.diagnostics(document, linted)
        return lsp.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: BreaklintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        linted = await ls.current(document)
        if linted is None:
            return None
        lines, codec = source_lines(linted.text), document.position_codec
        point = lsp.Range(params.position, params.position)
        here = [f for f in linted.findings if _overlaps(f, point, lines, codec)]
        if not here:
            return None
        content = lsp.MarkupContent(lsp.MarkupKind.Markdown, _hover_text(here))
        return lsp.Hover(contents=content, range=_finding_range(here[0], lines, codec))

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[
                lsp.CodeActionKind.QuickFix,
                lsp.CodeActionKind.SourceFixAll,
                FIX_ALL,
            ]
        ),
    )
    async def code_action(
        ls: BreaklintServer, params: lsp.CodeActionParams
    ) -> list[lsp.CodeAction | lsp.Command] | None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        linted = await ls.current(document)
        if linted is None or linted.text != document.source:
            return None
        wanted = params.context.only

        def asked(kind: str) -> bool:
            return wanted is None or any(kind == w or kind.startswith(f"{w}.") for w in wanted)

        actions: list[lsp.CodeAction | lsp.Command] = []
        if asked(lsp.CodeActionKind.QuickFix):
            actions += await _quick_fixes(ls, document, linted, params.range)
        if asked(FIX_ALL):
            fix_all = await _fix_all(ls, document, linted)
            if fix_all is not None:
                actions.append(fix_all)
        path = _python_path(document)
        if asked(RUN_PROBES_KIND) and path is not None and ls.project_for(path).settings.probes:
            actions.append(lsp.Command("breaklint: run the probes", RUN_PROBES))
        return actions

    @server.command(RUN_PROBES)
    async def run_probes(ls: BreaklintServer, *args: object) -> dict[str, str]:
        projects = await asyncio.to_thread(ls._projects_of, ls.open_texts())
        if not projects:
            projects = list(ls.projects.values())
        summaries = []
        for project in projects:
            try:
                run = await asyncio.to_thread(project.run_probes)
            except ConfigError as problem:
                summaries.append(f"breaklint: {problem}")
                continue
            summaries.append(run.summary)
        summary = "\n".join(summaries) or "breaklint: no project open: open one of its files"
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, summary))
        await ls.lint_open()
        _refresh(ls)
        return {"message": summary}

    return server


def _refresh(ls: BreaklintServer) -> None:
    """Ask a pulling client to pull again: another file's change may change its findings."""
    workspace = ls.client_capabilities.workspace
    diagnostics = workspace.diagnostics if workspace else None
    if ls.pull and diagnostics is not None and diagnostics.refresh_support:
        ls.workspace_diagnostic_refresh(None)


async def _quick_fixes(
    ls: BreaklintServer, document: TextDocument, linted: Linted, wanted: lsp.Range
) -> list[lsp.CodeAction]:
    from breaklint.fixer import with_edits

    lines, codec = source_lines(linted.text), document.position_codec
    here = [f for f in linted.findings if _overlaps(f, wanted, lines, codec)]
    definitions = _definitions(linted.text)
    fixable = [f for f in here if f.fix is not None]
    path = here[0].path if here else ""
    buffers = {path: linted.text}  # the edits are made in the buffer, not the file on disk
    made = await asyncio.to_thread(with_edits, fixable, texts=buffers) if fixable else []
    actions = []
    for finding in made:
        if finding.fix is None or not finding.fix.edits:
            continue
        safe = finding.fix.applies(unsafe=False)
        edits = [_text_edit(edit, lines, codec) for edit in finding.fix.edits]
        actions.append(
            lsp.CodeAction(
                title=f"{finding.code}: {finding.fix.message}" + ("" if safe else " (unsafe)"),
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[_diagnostic(finding, document.uri, lines, codec, definitions)],
                edit=lsp.WorkspaceEdit(changes={document.uri: edits}),
                is_preferred=safe,
            )
        )
    for finding in here:
        if finding.line > len(lines):
            continue
        actions.append(
            lsp.CodeAction(
                title=f"Ignore {finding.code} on this line",
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[_diagnostic(finding, document.uri, lines, codec, definitions)],
                edit=lsp.WorkspaceEdit(
                    changes={document.uri: [ignore_edit(lines, finding, codec)]}
                ),
            )
        )
    return actions


async def _fix_all(
    ls: BreaklintServer, document: TextDocument, linted: Linted
) -> lsp.CodeAction | None:
    from breaklint.fixer import FixError

    unsafe = ls.unsafe_fixes
    if not any(f.fix is not None and f.fix.applies(unsafe) for f in linted.findings):
        return None
    path = _python_path(document)
    assert path is not None
    project = ls.project_for(path)
    try:
        fixed = await asyncio.to_thread(project.fix_all, path, linted.text, unsafe)
    except FixError:
        return None
    if fixed == linted.text:
        return None
    lines = source_lines(linted.text)
    whole = lsp.Range(
        lsp.Position(0, 0), _position(lines, document.position_codec, len(lines) + 1, 1)
    )
    return lsp.CodeAction(
        title="breaklint: fix all" + (" (including unsafe fixes)" if unsafe else ""),
        kind=FIX_ALL,
        edit=lsp.WorkspaceEdit(changes={document.uri: [lsp.TextEdit(whole, fixed)]}),
    )


def serve() -> int:
    """Serve the protocol on stdin and stdout until the client says exit."""
    build_server().start_io()
    return 0
