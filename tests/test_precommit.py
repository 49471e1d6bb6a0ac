"""The published hook, run by the real pre-commit tool from another repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")

BAD = """import torch


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * x.max().item()
"""
GOOD = BAD.replace(".item()", "")


@pytest.fixture(scope="module")
def user_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("user-repo")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    (root / "bad.py").write_text(BAD)
    (root / "good.py").write_text(GOOD)
    for command in (["git", "init", "-q"], ["git", "add", "."], ["git", "commit", "-qm", "x"]):
        subprocess.run(command, cwd=root, env=env, check=True)
    return root, env


def try_repo(repo: Path, env: dict[str, str], *files: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "breaklint", "--files"]
    return subprocess.run(
        [*command, *files], cwd=repo, env=env, capture_output=True, text=True, timeout=600
    )


def test_hook_fails_on_a_bad_file(user_repo):
    repo, env = user_repo
    result = try_repo(repo, env, "bad.py")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "bad.py:6:20: BL101 [error]" in result.stdout


def test_hook_passes_on_a_good_file(user_repo):
    repo, env = user_repo
    result = try_repo(repo, env, "good.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "breaklint" in result.stdout and "Passed" in result.stdout
