"""Re-lint latency of a warm `breaklint server`, measured by a real LSP client.

    .venv/bin/python benchmarks/lsp_latency.py [--file PATH] [--edits 30]

Copies the Python files of PATH's folder (default: transformers' `modeling_llama.py` when
transformers is installed, else `examples/tiny_attention.py`) into a temporary workspace,
starts `breaklint server` over stdio with pygls' client, opens the file and asks for its
diagnostics once (the first run: every file of the workspace is checked). Then it makes
--edits unsaved edits to the open file, each a different text, and after each asks for the
document's diagnostics (`textDocument/diagnostic`: the server re-lints at once, no debounce)
and times the round trip, change notification to answer. It prints the first run and the
median, best and worst of the edits in milliseconds, and (on Linux) the CPU time the server
process spent per edit on average, which a busy machine does not inflate as it does wall time.
The target: a median of at most 50 ms on a typical model file.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent
TARGET_MS = 50.0


def default_file() -> Path:
    spec = importlib.util.find_spec("transformers")
    if spec is not None and spec.origin is not None:
        llama = Path(spec.origin).parent / "models" / "llama" / "modeling_llama.py"
        if llama.is_file():
            return llama
    return REPO / "examples" / "tiny_attention.py"


def edited(text: str, n: int) -> str:
    """`text` with a line changed, differently for each `n`: a comment after the first line
    holding `def forward` (or the first line), so line numbers stay."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if "def forward" in line), 0)
    lines[at] = lines[at].rstrip("\r\n") + f"  # edit {n}\n"
    return "".join(lines)


def cpu_seconds(pid: int) -> float | None:
    """User and system time of a process so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    workspace: Path, name: str, edits: int
) -> tuple[float, list[float], float | None]:
    client = LanguageClient("breaklint-benchmark", "1")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    await client.start_io(sys.executable, "-m", "breaklint", "server", env=env)
    capabilities = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            diagnostic=lsp.DiagnosticClientCapabilities()
        )
    )
    root = workspace.as_uri()
    await client.initialize_async(
        lsp.InitializeParams(
            capabilities=capabilities,
            process_id=os.getpid(),
            root_uri=root,
            workspace_folders=[lsp.WorkspaceFolder(root, workspace.name)],
        )
    )
    client.initialized(lsp.InitializedParams())
    uri = (workspace / name).as_uri()
    text = (workspace / name).read_text(encoding="utf-8")
    document = lsp.TextDocumentIdentifier(uri)
    started = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, text))
    )
    await client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(document))
    first = time.perf_counter() - started
    assert client._server is not None
    pid = client._server.pid
    times = []
    cpu_before = cpu_seconds(pid)
    for n in range(edits):
        started = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=n + 2, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text=edited(text, n))],
            )
        )
        await client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(document))
        times.append(time.perf_counter() - started)
    cpu_after = cpu_seconds(pid)
    cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / edits
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return first, times, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=None, help="the model file to edit")
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    source = (args.file or default_file()).resolve()
    with tempfile.TemporaryDirectory(prefix="breaklint-lsp-") as folder:
        workspace = Path(folder) / "workspace"
        workspace.mkdir()
        for path in source.parent.glob("*.py"):
            shutil.copy(path, workspace / path.name)
        first, times, cpu = asyncio.run(measure(workspace, source.name, args.edits))
        files = len(list(workspace.glob("*.py")))
    lines = len(source.read_text(encoding="utf-8").splitlines())
    ms = [t * 1000 for t in times]
    median = statistics.median(ms)
    print(f"file: {source} ({lines} lines; workspace of {files} files)")
    print(f"first run: {first * 1000:.0f} ms")
    print(
        f"re-lint after an unsaved edit, {len(ms)} edits: median {median:.1f} ms, "
        f"best {min(ms):.1f} ms, worst {max(ms):.1f} ms (target: <= {TARGET_MS:.0f} ms)"
    )
    if cpu is not None:
        print(f"server CPU time per edit: {cpu * 1000:.0f} ms on average")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if load is not None:
        print(f"load average {load:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
