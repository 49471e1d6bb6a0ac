"""`--fix`, `--unsafe-fixes` and `--diff`: what is written, what is not, and what is left."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess

import pytest

from conftest import REPO

MODEL = """
    import logging
    import warnings

    import torch

    logger = logging.getLogger(__name__)


    class Net(torch.nn.Module):
        def forward(self, x):
            print("in", x.shape)  # trace
            logger.info(
                "shape %s",
                x.shape,
            )
            x = x + 1; print(x)
            if x.dim() > 1: warnings.warn("2d")
            print(\"\"\"two
    lines\"\"\")
            return x
"""

FIXED = """\
import logging
import warnings

import torch

logger = logging.getLogger(__name__)


class Net(torch.nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            print("in", x.shape)  # trace
        if not torch.compiler.is_compiling():
            logger.info(
                "shape %s",
                x.shape,
            )
        x = x + 1; print(x)
        if x.dim() > 1: warnings.warn("2d")
        if not torch.compiler.is_compiling():
            print(\"\"\"two
lines\"\"\")
        return x
"""

UNSAFE_HINT = (
    "3 unsafe fixes available with `--fix --unsafe-fixes` (`--diff --unsafe-fixes` shows them; "
    "each rule's page says what they change)."
)


def _codes_at(stdout: str) -> list[str]:
    return [" ".join(line.split(" ")[:2]) for line in stdout.splitlines()]


def test_unsafe_fixes_guard_whole_statements_and_the_rest_is_reported(breaklint, write):
    path = write("model.py", MODEL)
    result = breaklint("model.py", "--fix", "--unsafe-fixes", "--output-format", "concise")
    assert path.read_text(encoding="utf-8") == FIXED
    # A statement sharing its line and one inside a one-line `if` are left to the user, at
    # their new positions; a string over two lines keeps its text.
    assert _codes_at(result.stdout) == ["model.py:18:20: BL401", "model.py:19:25: BL403"]
    assert "Fixed 3 findings." in result.stderr.splitlines()
    assert result.returncode == 1
    rerun = breaklint("model.py", "--fix", "--unsafe-fixes", "--output-format", "concise")
    assert path.read_text(encoding="utf-8") == FIXED
    assert rerun.stdout == result.stdout
    assert "Fixed" not in rerun.stderr


def test_fix_alone_writes_no_unsafe_fix_and_says_how(breaklint, write):
    path = write("model.py", MODEL)
    before = path.read_bytes()
    result = breaklint("model.py", "--fix", "--output-format", "concise")
    assert path.read_bytes() == before
    assert result.returncode == 1
    assert UNSAFE_HINT in result.stderr.splitlines()


def test_diff_prints_the_fixes_and_writes_nothing(breaklint, write):
    path = write("model.py", MODEL)
    before = path.read_bytes()
    result = breaklint("model.py", "--diff", "--unsafe-fixes")
    assert path.read_bytes() == before
    assert result.returncode == 1
    assert result.stdout.splitlines()[:3] == [
        "--- a/model.py",
        "+++ b/model.py",
        "@@ -8,13 +8,16 @@",
    ]
    added = [line for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert added == [
        "+        if not torch.compiler.is_compiling():",
        '+            print("in", x.shape)  # trace',
        "+        if not torch.compiler.is_compiling():",
        "+            logger.info(",
        '+                "shape %s",',
        "+                x.shape,",
        "+            )",
        "+        if not torch.compiler.is_compiling():",
        '+            print("""two',
    ]
    assert "Would fix 3 findings in 1 file." in result.stderr.splitlines()
    safe_only = breaklint("model.py", "--diff")
    assert safe_only.returncode == 0  # no safe fix to show
    assert safe_only.stderr.splitlines() == [
        "Would fix 0 findings in 0 files.",
        "3 more unsafe fixes with `--unsafe-fixes` (`--diff --unsafe-fixes` shows them).",
    ]


@pytest.mark.parametrize("end", ["\n", ""])
def test_diff_of_a_fix_on_the_last_line_is_one_patch_applies(breaklint, tmp_path, end):
    """No phantom line after the last one (it glued ` ` to the next file's `---`), and a
    last line without an ending is marked so that `patch` rebuilds the fixed text exactly."""
    source = (
        "import torch\n\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
        "        print(x)"
    )
    (tmp_path / "a.py").write_text(source + end, encoding="utf-8")
    (tmp_path / "b.py").write_text(source + end, encoding="utf-8")
    result = breaklint("a.py", "b.py", "--diff", "--unsafe-fixes")
    marker = [] if end else ["\\ No newline at end of file"]
    hunk = [
        "@@ -3,4 +3,5 @@",
        " ",
        " class Model(torch.nn.Module):",
        "     def forward(self, x):",
        "-        print(x)",
        *marker,
        "+        if not torch.compiler.is_compiling():",
        "+            print(x)",
        *marker,
    ]
    assert result.stdout.splitlines() == [
        *["--- a/a.py", "+++ b/a.py", *hunk],
        *["--- a/b.py", "+++ b/b.py", *hunk],
    ]
    if shutil.which("patch") is None:
        pytest.skip("needs GNU patch to apply the diff")
    applied = subprocess.run(
        ["patch", "-p1", "-s"], input=result.stdout, cwd=tmp_path, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    fixed = source.replace("        print(x)", PRINT_GUARDED) + end
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == fixed
    assert (tmp_path / "b.py").read_text(encoding="utf-8") == fixed


PRINT_GUARDED = "        if not torch.compiler.is_compiling():\n            print(x)"


def test_fixes_keep_encoding_line_endings_tabs_mode_and_symlinks(breaklint, tmp_path):
    source = (
        "# -*- coding: latin-1 -*-\r\n"
        "import torch as th\r\n"
        "\r\n"
        "\r\n"
        "class Net(th.nn.Module):\r\n"
        "\tdef forward(self, x):\r\n"
        "\t\tprint('caf\xe9', x)\r\n"
        "\t\treturn x\r\n"
    )
    real = tmp_path / "real.py"
    real.write_bytes(source.encode("latin-1"))
    real.chmod(0o754)
    (tmp_path / "link.py").symlink_to(real)
    result = breaklint("link.py", "--fix", "--unsafe-fixes", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "link.py").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o754
    assert real.read_bytes() == source.replace(
        "\t\tprint('caf\xe9', x)\r\n",
        "\t\tif not th.compiler.is_compiling():\r\n\t\t\tprint('caf\xe9', x)\r\n",
    ).encode("latin-1")
    assert [name for name in os.listdir(tmp_path) if name.endswith(".tmp")] == []


def test_json_and_sarif_carry_the_edit(breaklint, write):
    write("model.py", MODEL)
    findings = json.loads(breaklint("model.py", "--output-format", "json").stdout)["findings"]
    first = findings[0]
    assert (first["line"], first["code"]) == (11, "BL401")
    assert first["fix"] == {
        "message": "run it only when not compiling: `if not torch.compiler.is_compiling():`",
        "applicability": "unsafe",
        "rewrite": "guard",
        "target": {"line": 11, "column": 9, "end_line": 11, "end_column": 29},
        "torch": "torch",
        "adds_torch_import": False,
        "adds_imports": [],
        "edits": [
            {
                "line": 11,
                "column": 1,
                "end_line": 12,
                "end_column": 1,
                "content": "        if not torch.compiler.is_compiling():\n"
                '            print("in", x.shape)  # trace\n',
            }
        ],
    }
    assert [f["fix"] is None for f in findings] == [False, False, True, True, False]
    sarif = json.loads(breaklint("model.py", "--output-format", "sarif").stdout)
    schema = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema = pytest.importorskip("jsonschema", reason="validating SARIF needs jsonschema")
    jsonschema.validate(sarif, schema)
    (fix,) = sarif["runs"][0]["results"][0]["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["replacements"][0]["deletedRegion"] == {
        "startLine": 11,
        "startColumn": 1,
        "endLine": 12,
        "endColumn": 1,
    }


@pytest.mark.parametrize(
    ("imports", "added"),
    [
        ("from torch import nn", "from torch import nn\nimport torch\n"),
        ("import torch as th", None),
    ],
)
def test_the_guard_imports_torch_once_when_the_file_does_not(breaklint, write, imports, added):
    body = """


class Net(nn.Module):
    def forward(self, x):
        print(x)
        return x
"""
    path = write("model.py", imports + body + body.replace("Net", "Other"))
    findings = json.loads(breaklint("model.py", "--output-format", "json").stdout)["findings"]
    assert [f["code"] for f in findings] == ["BL401", "BL401"]
    assert all(f["fix"]["adds_torch_import"] is (added is not None) for f in findings)
    inserted = [e["content"] for e in findings[0]["fix"]["edits"] if e["line"] == e["end_line"]]
    assert inserted == (["import torch\n"] if added else [])
    assert breaklint("model.py", "--fix", "--unsafe-fixes").returncode == 0
    fixed = path.read_text(encoding="utf-8")
    torch = "torch" if added else "th"
    assert fixed.count(f"if not {torch}.compiler.is_compiling():\n            print(x)") == 2
    assert fixed.startswith(added or imports)
    assert fixed.count("import torch\n") == (1 if added else 0)


LAZY_TORCH = """
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

logger = logging.getLogger(__name__)


def forward(x, flag):
    {body}
    return x * 2
"""


@pytest.mark.parametrize(
    ("body", "fixed"),
    [
        # imported in the function before the call, in the block around it: `torch` is bound
        ("import torch\n\n    if flag:\n        logger.warning('on')", True),
        ("logger.warning('on')\n    import torch", False),  # imported after the call
        ("if flag:\n        import torch\n    logger.warning('on')", False),  # maybe unbound
        ("def helper():\n        import torch\n\n    logger.warning('on')", False),  # another scope
        ("logger.warning('on')", False),  # only under TYPE_CHECKING: unbound when it runs
    ],
)
def test_a_module_that_imports_torch_lazily_gets_the_guard_only_where_torch_is_bound(
    breaklint, write, body, fixed
):
    write("model.py", LAZY_TORCH.replace("{body}", body))
    result = breaklint("model.py", "--scope", "all", "--select", "BL402", "--output-format", "json")
    (finding,) = json.loads(result.stdout)["findings"]
    assert (finding["fix"] is not None) is fixed
    if fixed:
        assert finding["fix"]["adds_torch_import"] is False
        (edit,) = finding["fix"]["edits"]
        assert edit["content"] == (
            "        if not torch.compiler.is_compiling():\n            logger.warning('on')\n"
        )


def test_a_fix_that_cannot_be_written_leaves_the_file_and_exits_2(
    write, tmp_path, monkeypatch, capsys
):
    from breaklint import cli, fixer

    def refuse(path: str, data: bytes, **options: object) -> None:
        raise PermissionError(13, "Permission denied")

    path = write("model.py", MODEL)
    before = path.read_bytes()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(fixer, "replace_file", refuse)
    code = cli.main(["model.py", "--fix", "--unsafe-fixes", "--no-cache", "-q"])
    assert code == 2
    assert path.read_bytes() == before
    assert capsys.readouterr().err.splitlines() == [
        "breaklint: error: model.py: cannot write the fixes ([Errno 13] Permission denied); "
        "left unchanged"
    ]


# A namedtuple of outputs: saved and compared like a tuple.
FIX_HOLDS = """
    import collections

    import torch

    Scaled = collections.namedtuple("Scaled", ["value", "doubled"])


    def scaled(x):
        y = x * 2
        print("scaled")
        return Scaled(y + 1, y)


    compiled = torch.compile(scaled)
"""

# The mask selects rows; `torch.where(mask, x, 0)` broadcasts it over columns instead.
FIX_CHANGES_OUTPUT = """
    import torch


    def row_total(x):
        keep = x[:, 0] > 0
        return x[keep].sum()


    compiled = torch.compile(row_total)
"""

PROBES = """
    import torch

    from holds import scaled
    from changes import row_total


    def probe_holds():
        return scaled, (torch.randn(8),)


    def probe_changes():
        return row_total, (torch.randn(4, 4),)
"""


def test_fix_with_probes_keeps_what_holds_and_restores_what_changes_an_output(breaklint, write):
    pytest.importorskip("torch", reason="checking fixes on probes needs torch")
    holds, changes = write("holds.py", FIX_HOLDS), write("changes.py", FIX_CHANGES_OUTPUT)
    write("probes.py", PROBES)
    original = changes.read_bytes()
    result = breaklint(
        "holds.py", "changes.py", "--probes", "probes.py", "--fix", "--unsafe-fixes",
        "--output-format", "concise",
    )  # fmt: skip
    assert "    if not torch.compiler.is_compiling():\n        print" in holds.read_text()
    assert changes.read_bytes() == original
    lines = result.stderr.splitlines()
    start = lines.index("Fixes checked on the probes (before -> after):")
    assert lines[start + 1 : start + 3] == [
        "  probes.py::probe_holds: graphs 2 -> 1, breaks 1 -> 0, equal outputs",
        "  probes.py::probe_changes: graphs 2 -> 1, breaks 1 -> 0, outputs differ",
    ]
    (restored,) = [line for line in lines if line.startswith("breaklint: error: changes.py")]
    assert restored.startswith(
        "breaklint: error: changes.py: fixes (BL302 at line 6) undone, the file is as it was: "
        "probes.py::probe_changes gives other eager outputs ("
    )
    assert "Fixed 1 finding." in lines
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["BL302"]
    assert result.returncode == 1


# Two fixes in one file: the guarded `print` holds, the row mask's `torch.where` changes the
# output (it broadcasts the mask over columns).
FIX_MIXED = """
    import torch


    def scaled(x):
        y = x * 2
        print("scaled")
        return y + 1


    def row_total(x):
        keep = x[:, 0] > 0
        return x[keep].sum()


    compiled = torch.compile(scaled)
    compiled = torch.compile(row_total)
"""

PROBES_MIXED = """
    import torch

    from mixed import row_total, scaled


    def probe_scaled():
        return scaled, (torch.randn(8),)


    def probe_rows():
        return row_total, (torch.randn(4, 4),)
"""


def test_fix_with_probes_keeps_the_fixes_of_a_file_that_verify(breaklint, write, tmp_path):
    pytest.importorskip("torch", reason="checking fixes on probes needs torch")
    mixed = write("mixed.py", FIX_MIXED)
    write("probes.py", PROBES_MIXED)
    original = mixed.read_text()
    result = breaklint(
        "mixed.py", "--probes", "probes.py", "--fix", "--unsafe-fixes", "--output-format",
        "concise",
    )  # fmt: skip
    guarded = original.replace(
        '    print("scaled")', '    if not torch.compiler.is_compiling():\n        print("scaled")'
    )
    assert mixed.read_text() == guarded  # the mask's fix undone, the guard kept
    lines = result.stderr.splitlines()
    (message,) = [line for line in lines if line.startswith("breaklint: error: mixed.py")]
    assert message.startswith(
        "breaklint: error: mixed.py: fixes (BL302 at line 12) undone, those that verified "
        "(BL401 at line 6) kept: probes.py::probe_rows gives other eager outputs ("
    )
    assert "Fixed 1 finding." in lines
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["BL302"]
    assert result.returncode == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".breaklint-")) == []


# Draws from numpy's global random stream while it runs, as SpecAugment's masks do.
NUMPY_NOISE = """
    import numpy as np
    import torch


    def noisy(x):
        print("noisy")
        return x * float(np.random.rand())


    compiled = torch.compile(noisy)
"""

PROBES_NOISE = """
    import torch

    from noisy import noisy


    def probe_noisy():
        return noisy, (torch.randn(8),)
"""


def test_a_probe_drawing_from_numpy_is_seeded_so_a_fix_that_holds_is_kept(breaklint, write):
    pytest.importorskip("torch", reason="checking fixes on probes needs torch")
    noisy = write("noisy.py", NUMPY_NOISE)
    write("probes.py", PROBES_NOISE)
    result = breaklint("noisy.py", "--probes", "probes.py", "--fix", "--unsafe-fixes")
    assert "    if not torch.compiler.is_compiling():\n        print" in noisy.read_text()
    assert "undone" not in result.stderr
    assert "Fixed 1 finding." in result.stderr.splitlines()


# NaN where the input is negative, and an object that holds state (as a key/value cache does)
# in the outputs: two runs compare by the values inside, NaN equal to NaN at the same place.
NAN_AND_STATE = """
    import torch


    class Cache:
        def __init__(self, keys):
            self.keys = keys


    def logs(x):
        print("logs")
        return {"log": torch.log(x), "cache": Cache(x * 2)}


    compiled = torch.compile(logs)
"""

PROBES_NAN = """
    import torch

    from logs import logs


    def probe_logs():
        return logs, (torch.randn(8),)
"""


def test_outputs_with_nan_and_objects_compare_by_value_so_a_fix_that_holds_is_kept(
    breaklint, write
):
    pytest.importorskip("torch", reason="checking fixes on probes needs torch")
    logs = write("logs.py", NAN_AND_STATE)
    write("probes.py", PROBES_NAN)
    result = breaklint("logs.py", "--probes", "probes.py", "--fix", "--unsafe-fixes")
    assert "    if not torch.compiler.is_compiling():\n        print" in logs.read_text()
    assert "  probes.py::probe_logs: graphs 1 -> 1, breaks 1 -> 0, equal outputs" in (
        result.stderr.splitlines()
    )
    assert "undone" not in result.stderr
    assert result.returncode == 0


def test_fixed_summary_counts_each_rule(breaklint, write):
    write("model.py", MODEL)
    result = breaklint("model.py", "--fix", "--unsafe-fixes", "--output-format", "concise")
    lines = result.stderr.splitlines()
    start = lines.index("Fixed 3 findings.")
    assert lines[start + 1 :] == ["     2  BL401 print-call", "     1  BL402 logging-call"]


def test_a_file_changed_since_it_was_read_is_not_overwritten(write, tmp_path, monkeypatch):
    from breaklint.config import Settings
    from breaklint.engine import lint_paths
    from breaklint.fixer import plan_fixes, write_fixes

    path = write("model.py", MODEL)
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    plan = plan_fixes(findings, unsafe=True)
    edited = path.read_text(encoding="utf-8") + "# the user typed this meanwhile\n"
    path.write_text(edited, encoding="utf-8")
    assert write_fixes(plan) == {str(path): "it changed on disk since it was read; left unchanged"}
    assert path.read_text(encoding="utf-8") == edited


def test_linting_without_edits_never_imports_libcst(write, tmp_path):
    """libcst is the fix engine: a plain lint (pre-commit's path) does not pay for importing
    it, even with fixes to announce; JSON, which carries the edits, does."""
    import subprocess
    import sys

    write("model.py", MODEL)
    check = (
        "import sys\n"
        "from breaklint.cli import main\n"
        "code = main(['model.py', '--no-cache', '-q', '--output-format', sys.argv[1]])\n"
        "print(code, 'libcst' in sys.modules)\n"
    )
    for output_format, imported in (("concise", "False"), ("full", "False"), ("json", "True")):
        result = subprocess.run(
            [sys.executable, "-c", check, output_format],
            cwd=tmp_path, capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert result.stdout.splitlines()[-1] == f"1 {imported}", output_format


def test_installing_breaklint_brings_libcst():
    from importlib.metadata import requires

    assert any(requirement.startswith("libcst") for requirement in requires("breaklint") or [])


def test_fix_runs_again_when_a_fix_makes_another_possible(breaklint, write):
    path = write(
        "model.py",
        """
        import torch


        def pick(x):
            y = x * 2
            if y.sum() > 0:
                if y.mean() > 1:
                    out = y - 1
                else:
                    out = y + 1
            else:
                out = y
            return out


        compiled = torch.compile(pick)
        """,
    )
    result = breaklint("model.py", "--fix", "--unsafe-fixes")
    assert "    out = torch.where(y.sum() > 0, torch.where(y.mean() > 1, y - 1, y + 1), y)\n" in (
        path.read_text(encoding="utf-8")
    )
    assert result.stderr.splitlines()[-2:] == [
        "Fixed 2 findings.",
        "     2  BL201 data-dependent-branch",
    ]
    assert result.returncode == 0
    before = path.read_bytes()
    assert "Fixed" not in breaklint("model.py", "--fix", "--unsafe-fixes").stderr
    assert path.read_bytes() == before
