"""`breaklint server` end to end: a real LSP client (pygls') starts the server as an editor
would, in a subprocess over stdio, and checks what an editor shows.

Not pytest-lsp: its pytest hook (1.0.1) fails every test item that is not a function, such as
the lint items of breaklint's own pytest plugin (tests/test_testing.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent

MODEL = textwrap.dedent(
    """\
    import torch
    from torch import nn


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(4, 4)

        def forward(self, x):
            print("shape", x.shape)
            y = self.linear(x)
            scale = y.sum().item()
            return y * scale
    """
)
PRINT_LINE, ITEM_LINE, FORWARD_LINE = 10, 12, 9  # 0-based, as the protocol counts


def _project(tmp_path: Path, config: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.breaklint]\n{config}", encoding="utf-8")
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    return tmp_path / "model.py"


class Client(LanguageClient):
    """A client that keeps what the server publishes and shows, as an editor would."""

    def __init__(self) -> None:
        super().__init__("breaklint-tests", "1")
        self.diagnostics: dict[str, Sequence[lsp.Diagnostic]] = {}
        self.messages: list[lsp.ShowMessageParams] = []

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics

        @self.feature(lsp.WINDOW_SHOW_MESSAGE)
        def shown(params: lsp.ShowMessageParams) -> None:
            self.messages.append(params)

        @self.feature(lsp.WORKSPACE_DIAGNOSTIC_REFRESH)
        def refresh(params: None) -> None:
            return None


def _run(
    folder: Path,
    scenario: Callable[[Client, str], Awaitable[None]],
    capabilities: lsp.ClientCapabilities | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    """Start the server, initialize it on `folder`, open model.py, run `scenario(client,
    uri)`, shut down and exit; the server's exit status."""

    async def session() -> int:
        client = Client()
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        await client.start_io(sys.executable, "-m", "breaklint", "server", env=env)
        root = folder.as_uri()
        await client.initialize_async(
            lsp.InitializeParams(
                capabilities=capabilities or lsp.ClientCapabilities(),
                process_id=os.getpid(),
                root_uri=root,
                workspace_folders=[lsp.WorkspaceFolder(root, folder.name)],
                initialization_options=options,
            )
        )
        client.initialized(lsp.InitializedParams())
        uri = (folder / "model.py").as_uri()
        try:
            await scenario(client, uri)
        finally:
            await client.shutdown_async(None)
            client.exit(None)
            assert client._server is not None
            code = await client._server.wait()
            await client.stop()
        return code

    return asyncio.run(asyncio.wait_for(session(), 120))


async def _published(client: Client, uri: str, send: Callable[[], None]) -> list[lsp.Diagnostic]:
    """The diagnostics the server publishes for `uri` after `send()` (sends a notification)."""
    client.diagnostics.pop(uri, None)
    send()
    for _ in range(3000):
        if uri in client.diagnostics:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics published for {uri}")


async def _open(client: Client, uri: str, text: str) -> list[lsp.Diagnostic]:
    item = lsp.TextDocumentItem(uri, "python", 1, text)
    return await _published(
        client, uri, lambda: client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
    )


def _change(client: Client, uri: str, version: int, text: str) -> Callable[[], None]:
    """Sends the unsaved text of a document, when called."""
    return lambda: client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def _apply(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """The text after the edits (ASCII text: columns are characters)."""
    lines = text.splitlines(keepends=True)

    def offset(position: lsp.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def _only_edits(action: lsp.CodeAction, uri: str) -> Sequence[lsp.TextEdit]:
    assert action.edit is not None and action.edit.changes is not None
    assert list(action.edit.changes) == [uri]
    return action.edit.changes[uri]


async def _actions(
    client: Client, uri: str, line: int, only: list[str] | None = None
) -> list[lsp.CodeAction]:
    """The code actions at a line (a bare command as an action that runs it)."""
    where = lsp.Range(lsp.Position(line, 8), lsp.Position(line, 8))
    context = lsp.CodeActionContext(diagnostics=[], only=only)
    found = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), where, context)
    )
    return [
        a if isinstance(a, lsp.CodeAction) else lsp.CodeAction(a.title, command=a)
        for a in found or []
    ]


def test_diagnostics_fixes_ignore_hover_and_exit(tmp_path: Path) -> None:
    path = _project(tmp_path)

    async def scenario(client: Client, uri: str) -> None:
        diagnostics = await _open(client, uri, MODEL)
        assert [(d.code, d.range.start.line) for d in diagnostics] == [
            ("BL401", PRINT_LINE),
            ("BL101", ITEM_LINE),
        ]
        printed, item = diagnostics
        assert printed.range == lsp.Range(lsp.Position(10, 8), lsp.Position(10, 31))
        assert printed.severity == lsp.DiagnosticSeverity.Error
        assert printed.source == "breaklint"
        assert printed.code_description is not None
        assert printed.code_description.href.endswith("/rules/BL401-print-call/")
        assert printed.related_information is not None
        [root] = printed.related_information
        assert root.message == "compiled: Model.forward"
        assert root.location.range.start == lsp.Position(FORWARD_LINE, 4)
        assert item.range == lsp.Range(lsp.Position(12, 16), lsp.Position(12, 30))

        # The quick fix guards the print (unsafe: eager runs keep it, compiled ones drop it).
        actions = await _actions(client, uri, PRINT_LINE)
        titles = [a.title for a in actions]
        [guard] = [a for a in actions if a.title.startswith("BL401:")]
        assert guard.kind == lsp.CodeActionKind.QuickFix
        assert guard.is_preferred is False
        assert _apply(MODEL, _only_edits(guard, uri)) == MODEL.replace(
            '        print("shape", x.shape)\n',
            '        if not torch.compiler.is_compiling():\n            print("shape", x.shape)\n',
        )
        [ignore] = [a for a in actions if a.title == "Ignore BL401 on this line"]
        assert _apply(MODEL, _only_edits(ignore, uri)) == MODEL.replace(
            'print("shape", x.shape)\n', 'print("shape", x.shape)  # noqa: BL401\n'
        )
        assert "Ignore BL101 on this line" not in titles

        # Hover on `.item()`: the rule's page, in short.
        hover = await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(ITEM_LINE, 20))
        )
        assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
        text = hover.contents.value
        assert text.startswith("**BL101 tensor-item** (error): `.item()` turns a tensor")
        assert "**What it does**" in text and "**Why it breaks the graph**" in text
        assert "**Use instead**\n\n```python\n" in text
        assert "(https://breaklint.readthedocs.io/en/latest/rules/BL101-tensor-item/)" in text

        # Unsaved edits: the print removed, the diagnostics follow (the file is unchanged).
        edited = MODEL.replace('        print("shape", x.shape)\n', "")
        diagnostics = await _published(client, uri, _change(client, uri, 2, edited))
        assert [(d.code, d.range.start.line) for d in diagnostics] == [("BL101", ITEM_LINE - 1)]
        assert path.read_text(encoding="utf-8") == MODEL
        # A quick fix in unsaved text is made in that text, not in the file on disk.
        shifted = MODEL.replace("    def forward", "    # unsaved\n    def forward")
        await _published(client, uri, _change(client, uri, 3, shifted))
        actions = await _actions(client, uri, PRINT_LINE + 1)
        [guard] = [a for a in actions if a.title.startswith("BL401:")]
        assert _apply(shifted, _only_edits(guard, uri)) == shifted.replace(
            '        print("shape", x.shape)\n',
            '        if not torch.compiler.is_compiling():\n            print("shape", x.shape)\n',
        )
        await _published(client, uri, _change(client, uri, 4, edited))

        # Saved: linted again from what is now on disk.
        path.write_text(edited, encoding="utf-8")
        saved = lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri))
        after_save = await _published(client, uri, lambda: client.text_document_did_save(saved))
        assert after_save == diagnostics
        path.write_text(MODEL, encoding="utf-8")
        diagnostics = await _published(client, uri, _change(client, uri, 5, MODEL))
        assert [d.code for d in diagnostics] == ["BL401", "BL101"]

        # Fix-all offers only unsafe fixes here: nothing until `unsafeFixes` is on.
        assert await _actions(client, uri, 0, only=["source.fixAll"]) == []

        # No probes configured: the command says so.
        result = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams("breaklint.runProbes")
        )
        assert result["message"].startswith("breaklint: no probes configured: set `probes`")

    assert _run(tmp_path, scenario) == 0


def test_fix_all_with_unsafe_fixes_and_pull_diagnostics(tmp_path: Path) -> None:
    _project(tmp_path)
    pulling = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            diagnostic=lsp.DiagnosticClientCapabilities()
        )
    )

    async def scenario(client: Client, uri: str) -> None:
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, MODEL))
        )
        report = await client.text_document_diagnostic_async(
            lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri))
        )
        assert [(d.code, d.range.start.line) for d in report.items] == [
            ("BL401", PRINT_LINE),
            ("BL101", ITEM_LINE),
        ]
        [fix_all] = await _actions(client, uri, 0, only=["source.fixAll"])
        assert fix_all.kind == "source.fixAll.breaklint"
        assert _apply(MODEL, _only_edits(fix_all, uri)) == MODEL.replace(
            '        print("shape", x.shape)\n',
            '        if not torch.compiler.is_compiling():\n            print("shape", x.shape)\n',
        )

    assert _run(tmp_path, scenario, pulling, {"unsafeFixes": True}) == 0


def test_settings_reload_when_the_configuration_is_saved(tmp_path: Path) -> None:
    _project(tmp_path)
    config = tmp_path / "pyproject.toml"

    async def scenario(client: Client, uri: str) -> None:
        assert [d.code for d in await _open(client, uri, MODEL)] == ["BL401", "BL101"]
        config.write_text('[tool.breaklint]\nignore = ["BL401"]\n', encoding="utf-8")
        event = lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Changed)
        diagnostics = await _published(
            client,
            uri,
            lambda: client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams([event])
            ),
        )
        assert [d.code for d in diagnostics] == ["BL101"]
        # A configuration breaklint cannot read: the editor says why; the defaults apply.
        config.write_text("[tool.breaklint]\nunknown = 1\n", encoding="utf-8")
        diagnostics = await _published(
            client,
            uri,
            lambda: client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams([event])
            ),
        )
        assert [d.code for d in diagnostics] == ["BL401", "BL101"]
        assert [m.message for m in client.messages] == [
            f"breaklint: {config}: unknown option 'unknown' in [tool.breaklint]"
        ]

    assert _run(tmp_path, scenario) == 0


PROBES = textwrap.dedent(
    """\
    import torch
    from model import Model


    def probe_model():
        return Model(), (torch.randn(2, 4),)
    """
)


def test_run_probes_marks_findings_confirmed(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    _project(tmp_path, 'probes = ["probes.py"]\n')
    (tmp_path / "probes.py").write_text(PROBES, encoding="utf-8")

    async def scenario(client: Client, uri: str) -> None:
        await _open(client, uri, MODEL)
        [run] = await _actions(client, uri, 0, only=["source.runProbes"])
        assert run.title == "breaklint: run the probes"
        assert run.command is not None and run.command.command == "breaklint.runProbes"
        result = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams("breaklint.runProbes")
        )
        assert result["message"].startswith("breaklint: 1 probe(s) ran; findings: 2 confirmed")
        assert [(d.code, d.range.start.line, d.message[-22:]) for d in client.diagnostics[uri]] == [
            ("BL401", PRINT_LINE, "(confirmed by a probe)"),
            ("BL101", ITEM_LINE, "(confirmed by a probe)"),
        ]

    assert _run(tmp_path, scenario) == 0


def test_an_unsaved_edit_in_one_file_changes_another_files_diagnostics(tmp_path: Path) -> None:
    """The project is linted whole: a helper is flagged because another file's `forward`
    calls it, and stops being flagged when that call goes, before anything is saved."""
    (tmp_path / "pyproject.toml").write_text("[tool.breaklint]\n", encoding="utf-8")
    helpers = 'def log_shape(x):\n    print("shape", x.shape)\n    return x\n'
    (tmp_path / "helpers.py").write_text(helpers, encoding="utf-8")
    model = textwrap.dedent(
        """\
        from torch import nn

        from helpers import log_shape


        class Model(nn.Module):
            def forward(self, x):
                return log_shape(x) * 2
        """
    )
    (tmp_path / "model.py").write_text(model, encoding="utf-8")
    helpers_uri = (tmp_path / "helpers.py").as_uri()

    async def scenario(client: Client, uri: str) -> None:
        assert await _open(client, uri, model) == []
        [printed] = await _open(client, helpers_uri, helpers)
        assert (printed.code, printed.range.start.line) == ("BL401", 1)
        assert printed.related_information is not None
        assert printed.related_information[0].message == "compiled: reached from Model.forward"
        unused = model.replace("log_shape(x)", "x")
        assert await _published(client, helpers_uri, _change(client, uri, 2, unused)) == []

    assert _run(tmp_path, scenario) == 0
