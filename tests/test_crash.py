"""A crash is never mistaken for findings: one line on stderr, the traceback in a log file
(or on stderr with BREAKLINT_DEBUG=1), exit 2."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

# The CLI with scope computation broken, as a bug in breaklint would break it (a run of two
# files that import each other: a file no other reaches is its own project, whose scope comes
# from its own check).
CRASHING = """
import sys
import breaklint.engine
def broken(*args, **kwargs):
    raise KeyError("boom")
breaklint.engine.compile_scope = broken
from breaklint.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _crash(tmp_path, env=None, script=CRASHING):
    (tmp_path / "m.py").write_text("import torch\n\nfrom n import scale\n", encoding="utf-8")
    (tmp_path / "n.py").write_text("def scale(x):\n    return x * 2\n", encoding="utf-8")
    inherited = {k: v for k, v in os.environ.items() if k != "BREAKLINT_DEBUG"}
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", script, ".", "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**inherited, "PYTHONPATH": path, **(env or {})},
        timeout=120,
    )


def test_an_internal_error_is_one_line_and_exit_2(tmp_path):
    result = _crash(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    match = re.fullmatch(
        r"breaklint: error: internal error: KeyError: 'boom' \(a bug in breaklint; "
        r"traceback in (?P<log>\S+\.log)\)\n",
        result.stderr,
    )
    assert match, result.stderr
    log = Path(match["log"])
    assert log.read_text(encoding="utf-8").endswith("in broken\nKeyError: 'boom'\n")
    log.unlink()


def test_the_debug_variable_shows_the_traceback(tmp_path):
    result = _crash(tmp_path, {"BREAKLINT_DEBUG": "1"})
    assert result.returncode == 2
    assert result.stderr.startswith("Traceback (most recent call last):\n")
    assert result.stderr.endswith("breaklint: error: internal error: KeyError: 'boom'\n")


def test_a_bug_in_a_probe_slot_reaches_the_caller_without_a_thread_traceback(capsys, monkeypatch):
    from breaklint.dynamic import pool
    from breaklint.dynamic.model import Probe, Watch

    def broken(slot, request):
        raise KeyError("slot")

    monkeypatch.setattr(pool._Slot, "run", broken)
    workers = pool.WorkerPool(jobs=2, timeout_s=5, device="cpu", memory_mb=0)
    probes = [Probe("p.py", f"probe_{n}", n) for n in range(3)]
    with pytest.raises(KeyError, match="slot"):
        workers.run(probes, Watch(frozenset()))
    assert capsys.readouterr().err == ""


def test_a_crash_whose_message_cannot_be_shown_is_still_one_line_and_exit_2(tmp_path):
    # A key whose repr recurses without end, as a deep libcst node's does.
    deep_key = 'KeyError(type("Deep", (), {"__repr__": lambda self: repr(self)})())'
    result = _crash(tmp_path, script=CRASHING.replace('KeyError("boom")', deep_key))
    assert result.returncode == 2
    match = re.fullmatch(
        r"breaklint: error: internal error: KeyError: \(its message cannot be shown\) "
        r"\(a bug in breaklint; traceback in (?P<log>\S+\.log)\)\n",
        result.stderr,
    )
    assert match, result.stderr
    Path(match["log"]).unlink()
