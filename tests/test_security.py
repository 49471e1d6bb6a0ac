"""Hardening (issue 24): nothing written outside the linted tree or to a read-only file, remote
code only on request, odd inputs (FIFOs, devices, huge lines, deep expressions) answered with a
message, and messages that say what happened. Probe isolation is in test_probe_isolation.py,
hostile cache entries in test_cache.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from conftest import REPO

MODEL = """
    import torch


    class Net(torch.nn.Module):
        def forward(self, x):
            print(x)
            return x
"""
FIXED_LINE = "        if not torch.compiler.is_compiling():"


def _concise(breaklint, *args: str):
    return breaklint(*args, "--output-format", "concise", "--no-cache")


# Item 3: --fix writes only regular, writable files inside the linted tree.


def test_a_py_symlink_out_of_the_tree_is_linted_but_not_fixed(breaklint, write, tmp_path):
    outside = write("outside/model.py", MODEL)
    original = outside.read_text(encoding="utf-8")
    write("tree/own.py", MODEL)
    (tmp_path / "tree" / "link.py").symlink_to(outside)
    diff = breaklint("tree", "--diff", "--unsafe-fixes", "--no-cache")
    assert "+++ b/tree/own.py" in diff.stdout
    assert "link.py" not in diff.stdout
    assert "breaklint: warning: tree/link.py: not fixed:" in diff.stderr
    result = _concise(breaklint, "tree", "--fix", "--unsafe-fixes")
    assert outside.read_text(encoding="utf-8") == original
    assert FIXED_LINE in (tmp_path / "tree" / "own.py").read_text(encoding="utf-8")
    assert result.stdout.splitlines() == [
        "tree/link.py:6:9: BL401 [error] `print()` is a side effect Dynamo cannot put in a "
        "graph; it breaks the graph here to run it eagerly"
    ]
    assert (
        f"breaklint: warning: tree/link.py: not fixed: it resolves to '{outside}', outside "
        "the linted tree\n"
    ) in result.stderr
    assert result.returncode == 1


def test_a_read_only_file_is_never_fixed_even_as_root(breaklint, write):
    path = write("model.py", MODEL)
    original = path.read_text(encoding="utf-8")
    path.chmod(0o444)
    result = _concise(breaklint, "model.py", "--fix", "--unsafe-fixes", "-q")
    assert path.read_text(encoding="utf-8") == original
    assert oct(path.stat().st_mode & 0o777) == "0o444"
    assert result.stderr == ("breaklint: error: model.py: the file is read-only; left unchanged\n")
    assert result.returncode == 2


# Item 4: a folder's custom code never runs without trust_remote_code, decided where it loads.

CUSTOM_CONFIG = """
    from transformers import GPT2Config

    open({marker!r}, "a").write("config code ran\\n")


    class CustomConfig(GPT2Config):
        pass
"""
CUSTOM_MODEL = """
    from transformers import GPT2Model

    open({marker!r}, "a").write("modeling code ran\\n")


    class CustomModel(GPT2Model):
        pass
"""
# With the folder's config class mapped too, the model must name it.
CUSTOM_CONFIG_CLASS = """
    from .configuration_custom import CustomConfig

    CustomModel.config_class = CustomConfig
"""


def _build_folder(folder: Path, trust: bool, home: Path) -> subprocess.CompletedProcess[str]:
    """`breaklint.hf.build(folder, trust_remote_code=trust)` in a fresh interpreter whose
    Hugging Face caches live in `home`."""
    script = textwrap.dedent(
        f"""
        from breaklint import hf
        try:
            print("built", hf.build({str(folder)!r}, "eval", trust_remote_code={trust}).model_class)
        except hf.ModelBuildError as error:
            print("refused:", error.reason)
        """
    )
    environment = {**os.environ, "HF_HOME": str(home), "HF_MODULES_CACHE": str(home / "modules")}
    environment["PYTHONPATH"] = os.pathsep.join([str(REPO), environment.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment
    )


@pytest.mark.parametrize("mapped", [["AutoConfig", "AutoModel"], ["AutoModel"]])
def test_custom_code_of_a_folder_runs_only_when_trusted(tmp_path: Path, mapped: list[str]):
    """With `model_type` a type transformers knows, the folder's code was once reached through
    the `auto_map` of the built-in config class; the CLI's own check was the only barrier."""
    pytest.importorskip("torch", reason="hf builds torch models")
    pytest.importorskip("transformers", reason="hf builds models from transformers configs")
    marker = tmp_path / "marker"
    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "configuration_custom.py").write_text(
        textwrap.dedent(CUSTOM_CONFIG.format(marker=str(marker))), encoding="utf-8"
    )
    model = CUSTOM_MODEL.format(marker=str(marker))
    model += CUSTOM_CONFIG_CLASS if "AutoConfig" in mapped else ""
    (folder / "modeling_custom.py").write_text(textwrap.dedent(model), encoding="utf-8")
    classes = {
        "AutoConfig": "configuration_custom.CustomConfig",
        "AutoModel": "modeling_custom.CustomModel",
    }
    config = {
        "model_type": "gpt2",  # a type transformers knows: its own classes must be no way in
        "auto_map": {name: classes[name] for name in mapped},
        **{"n_layer": 2, "n_embd": 32, "n_head": 2, "vocab_size": 100},
    }
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    refused = _build_folder(folder, False, tmp_path / "hf")
    assert refused.stdout == (
        f"refused: {folder} holds custom modeling code (config.json's auto_map): it runs only "
        "with --trust-remote-code\n"
    ), refused.stderr
    assert not marker.exists()
    trusted = _build_folder(folder, True, tmp_path / "hf")
    assert trusted.stdout == "built CustomModel\n", trusted.stderr
    assert "modeling code ran\n" in marker.read_text(encoding="utf-8")


# Item 9: only regular files are read, with a size bound.


def test_fifos_and_devices_named_py_are_skipped_with_a_warning(breaklint, write, tmp_path):
    write("model.py", MODEL)
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    result = _concise(breaklint, ".")
    assert result.returncode == 1
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["model.py:6:9:", "BL401"]
    ]
    assert result.stderr.splitlines()[:2] == [
        "breaklint: warning: skipped 'pipe.py': not a regular file (a FIFO)",
        "breaklint: warning: skipped 'zero.py': not a regular file (a character device)",
    ]


def test_a_file_over_the_size_bound_is_a_finding_not_read(breaklint, tmp_path):
    from breaklint.source import MAX_FILE_BYTES

    with open(tmp_path / "huge.py", "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    result = _concise(breaklint, "huge.py")
    assert result.stdout == (
        f"huge.py:1:1: BL001 [error] cannot read file: larger than {MAX_FILE_BYTES // 2**20} MB\n"
    )
    assert result.returncode == 1


def test_a_file_swapped_for_a_fifo_is_never_opened_blocking(tmp_path):
    from breaklint.source import Unreadable, read_source

    os.mkfifo(tmp_path / "pipe.py")  # what discovery saw as a file, swapped before the read
    assert read_source(str(tmp_path / "pipe.py")) == Unreadable(
        "cannot read file: not a regular file (a FIFO)"
    )


# Item 10: code nested too deeply for libcst keeps its findings; only its fixes are dropped.

DEEP = """
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        print(x)
        y = {terms}
        return y
"""


@pytest.mark.parametrize("fmt", ["json", "sarif", "diff", "fix"])
def test_a_long_operator_chain_drops_only_its_files_fixes(breaklint, write, fmt: str):
    write("deep.py", DEEP.format(terms=" + ".join(["x"] * 500)))
    write("model.py", MODEL)
    option = {"diff": ["--diff"], "fix": ["--fix"]}.get(fmt, ["--output-format", fmt])
    result = breaklint(".", "--unsafe-fixes", "--no-cache", *option)
    note = (
        "breaklint: warning: deep.py: nested too deeply for libcst to rewrite: its fixes are "
        "left out; its findings stay\n"
    )
    assert "internal error" not in result.stderr
    assert note in result.stderr
    assert result.returncode == 1
    if fmt == "json":
        findings = {f["path"]: f for f in json.loads(result.stdout)["findings"]}
        assert findings["deep.py"]["code"] == "BL401"
        assert findings["deep.py"]["fix"] is None
        assert findings["model.py"]["fix"]["edits"]


# Item 11: the full format cuts long source lines around the span.


def test_full_format_cuts_a_long_line_around_the_span(breaklint, write):
    padding = "1, " * 1_000_000  # a 6 MB line
    write("wide.py", MODEL.replace("print(x)", f"y = [{padding}]; print(x); z = [{padding}]"))
    result = breaklint("wide.py", "--no-cache")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    source, caret = lines[2], lines[3]
    assert source.startswith("6 | …") and source.endswith("…")
    assert len(source) == len("6 | ") + 200 + 2
    assert caret.strip(" |") == "^" * len("print(x)")
    start = caret.index("^")
    assert source[start : start + len("print(x)")] == "print(x)"
    assert breaklint("wide.py", "--no-cache").stdout == result.stdout


# Item 12: a missing path is an error, never followed by "All checks passed".


@pytest.mark.parametrize("args", [["nope.py"], ["init"]])
def test_a_missing_path_exits_2_with_only_the_error(breaklint, args: list[str]):
    result = breaklint(*args)
    assert result.returncode == 2
    assert result.stderr == f"breaklint: error: path '{args[0]}' does not exist\n"
    assert result.stdout == ""


# Item 13: rule codes are case-insensitive everywhere.


def test_rule_codes_are_case_insensitive_everywhere(breaklint, write):
    other = "class Other(torch.nn.Module):\n    def forward(self, x):\n        return x.item()"
    write("model.py", f"{textwrap.dedent(MODEL)}\n\n{other}  # noqa: bl101\n")
    write("pyproject.toml", '[tool.breaklint]\nper-file-ignores = {"other*" = ["bl2"]}\n')
    expected = _concise(breaklint, ".", "--select", "BL4,BL101")
    assert expected.returncode == 1
    assert [line.split(" ")[1] for line in expected.stdout.splitlines()] == ["BL401"]
    for args in (["--select", "bl4,bl101"], ["--select", "all", "--ignore", "bl3"]):
        result = _concise(breaklint, ".", *args, "--per-file-ignores", "model.py:bl2")
        assert result.returncode == 1, result.stderr
        assert result.stdout == expected.stdout
    ignored = _concise(breaklint, ".", "--ignore", "bl401")
    assert ignored.returncode == 0, ignored.stderr
    assert breaklint("rule", "bl401").returncode == 0


# Item 14: a file rewritten while --fix runs is "changed on disk", never a breaklint bug.

REWRITE_AFTER_LINT = """
import sys

import breaklint.engine as engine

lint_paths = engine.lint_paths


def lint_then_edit(*args, **options):
    result = lint_paths(*args, **options)
    with open("model.py", encoding="utf-8") as handle:
        text = handle.read()
    if not text.startswith("# edited"):  # the user saves the file once, lines shifted
        with open("model.py", "w", encoding="utf-8") as handle:
            handle.write("# edited\\n# meanwhile\\n" + text)
    return result


engine.lint_paths = lint_then_edit
from breaklint.cli import main

sys.exit(main(sys.argv[1:]))
"""


def test_a_file_edited_during_fix_is_changed_on_disk(write, tmp_path):
    write("model.py", MODEL)
    (tmp_path / "run.py").write_text(REWRITE_AFTER_LINT, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "run.py", "model.py", "--fix", "--unsafe-fixes", "--no-cache", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert result.stderr == (
        "breaklint: error: model.py: it changed on disk since it was linted; left unchanged\n"
    )
    assert result.returncode == 2
    assert (tmp_path / "model.py").read_text(encoding="utf-8").startswith("# edited\n")
    assert FIXED_LINE not in (tmp_path / "model.py").read_text(encoding="utf-8")


# Item 15: the README says what each install brings, as pyproject.toml declares it.


def _package(requirement: str) -> str:
    """`torch>=2.4` -> `torch`; `breaklint[dynamic]` -> `breaklint[dynamic]`."""
    return re.split(r"[<>=!~ ;]", requirement, maxsplit=1)[0]


def test_the_readme_says_what_each_install_brings():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("What each install brings:\n\n")[1].split("\n\n")[0]
    rows = {
        cells[0].strip("` "): cells[1]
        for line in table.splitlines()[2:]
        for cells in [line.strip("|").split("|")]
    }
    installs = {"breaklint": project["dependencies"]}
    installs |= {
        f"breaklint[{extra}]": needs for extra, needs in project["optional-dependencies"].items()
    }
    assert set(rows) == set(installs)
    for install, needs in installs.items():
        for requirement in needs:
            package = _package(requirement)
            if package.startswith("breaklint["):
                continue  # another extra: its own row names its packages
            assert f"`{package}" in rows[install], f"{install} brings {package}: say so"
    assert "[SECURITY.md](SECURITY.md)" in readme
    assert (REPO / "SECURITY.md").is_file()
