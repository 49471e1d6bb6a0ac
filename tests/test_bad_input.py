"""Bad input gets a clear one-line message, never a traceback; nothing is written."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

MODEL = """
import torch


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * x.max().item()
"""


def concise(breaklint, *args: str):
    return breaklint(*args, "--output-format", "concise")


def test_syntax_error_is_a_finding_and_other_files_are_linted(breaklint, write):
    write("broken.py", "def forward(self, x)\n    return x\n")
    write("model.py", MODEL)
    result = concise(breaklint, ".")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "broken.py:1:21: BL001 [error] SyntaxError: expected ':'",
        "model.py:6:20: BL101 [error] `.item()` turns a tensor into a Python number: "
        "Dynamo breaks the graph here",
    ]
    assert "Traceback" not in result.stderr


def test_non_utf8_file_is_a_finding(breaklint, tmp_path, write):
    (tmp_path / "latin.py").write_bytes(b"x = 1\nname = '\xe9t\xe9'\n")
    write("model.py", MODEL)
    result = concise(breaklint, ".")
    assert result.stdout.splitlines()[0] == (
        "latin.py:2:1: BL001 [error] cannot decode file as utf-8: invalid continuation byte "
        "(declare its encoding, PEP 263)"
    )
    assert len(result.stdout.splitlines()) == 2


def test_declared_encoding_is_honoured(breaklint, tmp_path):
    source = "# -*- coding: latin-1 -*-\n" + MODEL.replace(".item()", ".item()  # caf\xe9")
    (tmp_path / "model.py").write_bytes(source.encode("latin-1"))
    result = concise(breaklint, "model.py")
    assert result.stdout.startswith("model.py:8:20: BL101 ")


def test_empty_file_is_clean(breaklint, write):
    write("empty.py", "")
    result = breaklint("empty.py")
    assert result.returncode == 0
    assert result.stderr.startswith("All checks passed (1 file in ")


def test_missing_path_is_reported_and_the_rest_is_linted(breaklint, write):
    write("model.py", MODEL)
    result = concise(breaklint, "nope.py", "model.py")
    assert result.returncode == 2
    assert "breaklint: error: path 'nope.py' does not exist\n" in result.stderr
    assert result.stdout.startswith("model.py:6:20: BL101 ")


def test_folder_without_python_files_warns_and_exits_0(breaklint, write):
    write("docs/readme.md", "# docs\n")
    result = breaklint("docs")
    assert result.returncode == 0
    assert "breaklint: warning: no Python files found under 'docs'\n" in result.stderr


def test_unwritable_output_file_is_an_error(breaklint, write):
    write("model.py", MODEL)
    result = breaklint("model.py", "--output-file", "missing-dir/report.txt")
    assert result.returncode == 2
    assert result.stderr.startswith(
        "breaklint: error: cannot write report to 'missing-dir/report.txt'"
    )


def test_nothing_in_the_project_is_written_but_the_ignored_cache(breaklint, write, tmp_path):
    write("model.py", MODEL)
    write("broken.py", "def f(:\n")
    write("pyproject.toml", "[tool.breaklint]\n")
    cache = tmp_path / ".breaklint_cache"

    def snapshot() -> dict[str, str]:
        return {
            str(p.relative_to(tmp_path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(tmp_path).rglob("*"))
            if p.is_file() and cache not in p.parents
        }

    before = snapshot()
    for fmt in ["full", "concise", "json", "github"]:
        concise(breaklint, ".", "--output-format", fmt)
    assert snapshot() == before
    assert (cache / ".gitignore").read_text(encoding="utf-8") == "*\n"


def test_code_nested_too_deeply_is_a_finding_not_a_crash(breaklint, write):
    terms = " + ".join(["x"] * 20000)
    write("deep.py", f"import torch\n\n\ndef f(x):\n    return {terms}\n")
    write("model.py", MODEL)
    result = concise(breaklint, ".")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "deep.py:1:1: BL001 [error] this file is nested too deeply to analyse; "
        "nothing in it was checked"
    )
    assert result.stdout.splitlines()[1].startswith("model.py:6:20: BL101 ")
    assert "Traceback" not in result.stderr


def test_a_long_chain_of_rebindings_is_analysed_in_workers_too(breaklint, write):
    # Each binding's summary holds the one before it: what `grow` returns is read through
    # 1,500 of them, in the worker processes of --jobs 2 as in the main process.
    chain = "\n".join("    x = x + 1" for _ in range(1500))
    write(
        "chain.py",
        f"import torch\n\n\ndef grow(x):\n{chain}\n    return x\n\n\n"
        "@torch.compile\ndef run(t):\n    return grow(t).max().item()\n",
    )
    write("model.py", MODEL)
    result = concise(breaklint, ".", "--jobs", "2")
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert result.returncode == 1
    assert [line.split(" [")[0] for line in result.stdout.splitlines()] == [
        "chain.py:1510:12: BL101",
        "model.py:6:20: BL101",
    ]


def test_a_breaklint_bug_is_reported_where_it_happened_and_exits_2(
    tmp_path, write, monkeypatch, capsys
):
    from breaklint import checker, cli

    def broken(*args, **kwargs):
        raise KeyError("boom")

    write("model.py", MODEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checker, "_check_function", broken)
    code = cli.main(["model.py", "--output-format", "concise", "--no-cache", "--jobs", "1"])
    assert code == 2
    assert capsys.readouterr().out == (
        "model.py:5:1: BL002 [error] breaklint failed on this code; the rest of the project "
        "was still checked (KeyError: 'boom')\n"
    )


def test_a_killed_worker_leaves_its_files_to_the_main_process(tmp_path, write, monkeypatch):
    from breaklint import checker
    from breaklint.config import Settings
    from breaklint.engine import lint_paths

    files = [str(write(f"model{n}.py", MODEL)) for n in range(10)]
    serial = lint_paths(files, Settings(root=tmp_path), jobs=1, use_cache=False).findings
    assert len(serial) == 10
    main, check_file = os.getpid(), checker.check_file

    def dying(*args):
        if os.getpid() != main:
            os._exit(1)  # as if the kernel had killed the worker
        return check_file(*args)

    monkeypatch.setattr(checker, "check_file", dying)
    assert lint_paths(files, Settings(root=tmp_path), jobs=2, use_cache=False).findings == serial


def test_deep_code_that_compiles_is_linted_not_reported(breaklint, write):
    write("sum.py", "import torch\nx = " + " + ".join(["1"] * 500) + "\n")
    # The rules walk it too: it is in a forward.
    chain = " + ".join(["x"] * 2000)
    write("deep.py", MODEL.replace("return x *", f"y = {chain}\n        return y *"))
    result = concise(breaklint, ".")
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["deep.py:7:20:", "BL101"]
    ]


def test_code_that_parses_but_does_not_compile_is_a_finding(breaklint, write):
    write("loose.py", "import torch\n\nbreak\n")
    write("model.py", MODEL)
    result = concise(breaklint, ".")
    assert (
        result.stdout.splitlines()[0]
        == "loose.py:3:1: BL001 [error] SyntaxError: 'break' outside loop"
    )
    assert result.stdout.splitlines()[1].startswith("model.py:6:20: BL101 ")


def test_an_unreadable_subfolder_is_warned_about(breaklint, write, tmp_path):
    write("model.py", MODEL)
    # A folder whose path is too long to open: unreadable even for root, unlike chmod 000.
    deep = os.open(tmp_path, os.O_RDONLY)
    for _ in range(20):
        os.mkdir("d" * 250, dir_fd=deep)
        inner = os.open("d" * 250, os.O_RDONLY, dir_fd=deep)
        os.close(deep)
        deep = inner
    os.close(deep)
    result = concise(breaklint, ".")
    assert result.returncode == 1
    assert result.stdout.startswith("model.py:6:20: BL101 ")
    warnings = [line for line in result.stderr.splitlines() if "cannot read folder" in line]
    assert len(warnings) == 1
    assert warnings[0].startswith("breaklint: warning: cannot read folder '" + "d" * 250 + "/")
    assert warnings[0].endswith("': File name too long")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_a_folder_without_read_permission_is_warned_about(breaklint, write, tmp_path):
    write("model.py", MODEL)
    write("private/secret.py", MODEL)
    (tmp_path / "private").chmod(0)
    try:
        result = concise(breaklint, ".")
    finally:
        (tmp_path / "private").chmod(0o755)
    assert "breaklint: warning: cannot read folder 'private': Permission denied\n" in result.stderr


def test_the_compilers_warnings_about_user_code_are_not_printed(breaklint, write):
    write("warns.py", 'import torch\n\npattern = "\\d"\nvalue = 1() if False else 0\n')
    result = breaklint("warns.py", "--no-cache", "-q")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    strict = breaklint("warns.py", "--no-cache", "-q", env={"PYTHONWARNINGS": "error"})
    assert (strict.returncode, strict.stdout, strict.stderr) == (0, "", "")


PROBES = """
import torch


def probe_scale():
    return (lambda x: x * x.max().item(), (torch.ones(2),))
"""


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--probe-timeout", "--probe-timeout must be positive"),
        ("--variant-budget", "--variant-budget must be a number of seconds, or 0 for no limit"),
    ],
)
def test_nan_limit_is_refused(breaklint, write, option, message):
    write("model.py", MODEL)
    write("probes.py", PROBES)
    result = breaklint("model.py", "--probes", "probes.py", option, "nan")
    assert result.returncode == 2
    assert result.stderr == f"breaklint: error: {message}\n"
    assert result.stdout == ""


@pytest.mark.parametrize("seconds", ["inf", "1e300"])
def test_unbounded_probe_timeout_runs_the_probes(breaklint, write, seconds):
    """A limit past what select() takes (a time_t) waits in bounded steps, no OverflowError."""
    pytest.importorskip("torch", reason="the probes run under Dynamo")
    write("model.py", MODEL)
    write("probes.py", PROBES)
    result = concise(breaklint, "model.py", "--probes", "probes.py", "--probe-timeout", seconds)
    assert "internal error" not in result.stderr
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "model.py:6:20: BL101 [error] `.item()` turns a tensor into a Python number: "
        "Dynamo breaks the graph here",
        "probes.py:5:27: BL900 [error] Dynamo broke the graph here (GB0124: Unsupported "
        "Tensor.item() call with capture_scalar_outputs=False)",
    ]
