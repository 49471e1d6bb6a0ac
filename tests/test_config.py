"""[tool.breaklint] in pyproject.toml and the matching command-line options."""

from __future__ import annotations

import pytest

MODEL = """
import torch


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * x.max().item()
"""


def paths_in(result) -> list[str]:
    return sorted({line.split(":")[0] for line in result.stdout.splitlines()})


@pytest.fixture
def project(write):
    for name in ["model.py", "tests/test_model.py", "vendor/lib.py", "gen/out_pb2.py"]:
        write(name, MODEL)
    return write


def test_ignore_by_prefix_in_config(breaklint, project):
    project("pyproject.toml", '[tool.breaklint]\nignore = ["BL1"]\n')
    result = breaklint(".", "--output-format", "concise")
    assert result.returncode == 0
    assert result.stdout == ""


def test_select_in_config_and_all_on_the_command_line(breaklint, project):
    project("pyproject.toml", '[tool.breaklint]\nselect = ["BL001"]\n')
    assert breaklint("model.py").returncode == 0
    assert breaklint("model.py", "--select", "ALL").returncode == 1
    assert breaklint("model.py", "--extend-select", "BL101").returncode == 1


def test_per_file_ignores_in_config_and_on_the_command_line(breaklint, project):
    project("pyproject.toml", '[tool.breaklint.per-file-ignores]\n"tests/*" = ["BL101"]\n')
    result = breaklint(".", "--output-format", "concise")
    assert paths_in(result) == ["gen/out_pb2.py", "model.py", "vendor/lib.py"]
    result = breaklint(".", "--output-format", "concise", "--per-file-ignores", "*_pb2.py:BL1")
    assert paths_in(result) == ["model.py", "vendor/lib.py"]


def test_exclude_and_extend_exclude(breaklint, project):
    project("pyproject.toml", '[tool.breaklint]\nextend-exclude = ["vendor", "gen/*_pb2.py"]\n')
    result = breaklint(".", "--output-format", "concise")
    assert paths_in(result) == ["model.py", "tests/test_model.py"]
    result = breaklint(".", "--output-format", "concise", "--exclude", "tests")
    assert paths_in(result) == ["model.py"]


def test_explicit_files_are_linted_unless_force_exclude(breaklint, project):
    project("pyproject.toml", '[tool.breaklint]\nextend-exclude = ["vendor"]\n')
    assert paths_in(breaklint("vendor/lib.py", "--output-format", "concise")) == ["vendor/lib.py"]
    result = breaklint("vendor/lib.py", "model.py", "--force-exclude", "--output-format", "concise")
    assert paths_in(result) == ["model.py"]


def test_force_exclude_from_config(breaklint, project):
    project("pyproject.toml", '[tool.breaklint]\nexclude = ["vendor"]\nforce-exclude = true\n')
    assert breaklint("vendor/lib.py").returncode == 0


def test_default_excludes_skip_virtualenvs_and_build_folders(breaklint, write):
    for name in [".venv/lib/x.py", "build/lib/x.py", "env/lib/x.py", "ok/x.py"]:
        write(name, MODEL)
    write("env/pyvenv.cfg", "home = /usr\n")
    assert paths_in(breaklint(".", "--output-format", "concise")) == ["ok/x.py"]


def test_nearest_pyproject_above_the_linted_path_is_used(breaklint, write):
    write("pyproject.toml", '[tool.breaklint]\nignore = ["BL101"]\n')
    write("sub/model.py", MODEL)
    assert breaklint("sub/model.py").returncode == 0
    assert breaklint("sub/model.py", "--isolated").returncode == 1


def test_unknown_rule_in_select_is_a_usage_error(breaklint, project):
    result = breaklint("model.py", "--select", "BL999")
    assert result.returncode == 2
    assert result.stderr == "breaklint: error: --select: unknown rule selector 'BL999'\n"


@pytest.mark.parametrize(
    ("table", "key", "selector"),
    [
        ('[tool.breaklint]\nignore = ["XYZ1"]\n', "ignore", "XYZ1"),
        ('[tool]\nbreaklint.select = ["BL999"]\n', "select", "BL999"),  # dotted keys
    ],
)
def test_unknown_rule_in_config_names_the_file(breaklint, project, tmp_path, table, key, selector):
    project("pyproject.toml", table)
    result = breaklint("model.py")
    assert result.returncode == 2
    config = tmp_path / "pyproject.toml"
    assert (
        result.stderr
        == f"breaklint: error: {config}: '{key}': unknown rule selector '{selector}'\n"
    )


def test_malformed_pyproject_is_a_config_error(breaklint, project, tmp_path):
    project("pyproject.toml", "[tool.breaklint\nselect = 1\n")
    result = breaklint("model.py")
    assert result.returncode == 2
    prefix = f"breaklint: error: {tmp_path / 'pyproject.toml'}: invalid TOML: "
    assert result.stderr.startswith(prefix)
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('selct = ["BL1"]', "unknown option 'selct' in [tool.breaklint]"),
        ("select = 'BL1'", "'select' must be a list of strings"),
        ('scope = "everything"', "'scope' must be one of compiled, all"),
        ('target-version = "3.11"', "'target-version' must be a Python version such as 'py311'"),
    ],
)
def test_invalid_options_are_config_errors(breaklint, project, tmp_path, table, message):
    project("pyproject.toml", f"[tool.breaklint]\n{table}\n")
    result = breaklint("model.py")
    assert result.returncode == 2
    assert result.stderr == f"breaklint: error: {tmp_path / 'pyproject.toml'}: {message}\n"


def test_a_folder_named_explicitly_is_walked_even_inside_an_excluded_one(breaklint, write):
    write(".venv/lib/site-packages/pkg/model.py", MODEL)
    assert paths_in(breaklint(".", "--output-format", "concise")) == []
    result = breaklint(".venv/lib/site-packages/pkg", "--output-format", "concise")
    assert paths_in(result) == [".venv/lib/site-packages/pkg/model.py"]
    assert breaklint(".venv/lib/site-packages/pkg", "--force-exclude").returncode == 0


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, "{a = " * 5000 + "1" + "}" * 5000])
def test_toml_nested_too_deeply_is_a_config_error_naming_the_file(
    breaklint, project, tmp_path, nested
):
    project("pyproject.toml", f'[tool.breaklint]\nselect = ["BL1"]\n[other]\nx = {nested}\n')
    result = breaklint("model.py")
    assert result.returncode == 2
    config = tmp_path / "pyproject.toml"
    assert result.stderr == f"breaklint: error: {config}: invalid TOML: nested too deeply\n"


@pytest.mark.parametrize(
    "spelling",
    [
        '[tool]\nbreaklint.ignore = ["BL1"]\n',
        'tool.breaklint.ignore = ["BL1"]\n',
        '[tool]\nbreaklint = { ignore = ["BL1"] }\n',
    ],
)
def test_every_toml_spelling_of_the_table_is_read(breaklint, project, spelling):
    project("pyproject.toml", spelling)
    result = breaklint("model.py", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_pyproject_that_only_mentions_breaklint_elsewhere_is_passed_over(
    breaklint, project, write
):
    project("pyproject.toml", '[tool.breaklint]\nignore = ["BL1"]\n')
    write("sub/pyproject.toml", '[project]\nname = "uses-breaklint"\n')
    write("sub/model.py", MODEL)
    result = breaklint("sub/model.py", "--output-format", "concise")
    assert result.returncode == 0, result.stdout


PICKED = """
import torch


def pick(parts: list[torch.Tensor], order: list[int]):
    return [parts[i] for i in sorted(order)]


compiled = torch.compile(pick)
"""


@pytest.mark.parametrize(("target", "flagged"), [("py311", True), ("py312", False)])
def test_the_target_python_decides_the_rules_of_comprehension_frames(
    breaklint, write, target, flagged
):
    # Python 3.12 inlines comprehensions (PEP 709): BL203, BL205 and BL523 have nothing to
    # report there, whatever Python breaklint runs on.
    write("pick.py", PICKED)
    write("pyproject.toml", f'[tool.breaklint]\ntarget-version = "{target}"\n')
    result = breaklint("pick.py", "--output-format", "concise", "--no-cache")
    assert ("pick.py:5:12: BL523 [error]" in result.stdout) is flagged
    assert result.returncode == (1 if flagged else 0)
