"""breaklint's pytest plugin, registered through the `pytest11` entry point.

Inert unless used: importing it imports neither torch nor the rules. It offers

- the `graph_clean` fixture, which is `breaklint.testing.assert_graph_clean` and skips the
  test when torch is not installed:

      def test_model_compiles_to_one_graph(graph_clean):
          graph_clean(MyModel(), torch.randn(2, 8))

- the `--breaklint` option, which adds one item per collected Python file that fails with
  the static phase's findings for that file, as linters' pytest plugins do.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def graph_clean() -> Callable[..., Any]:
    """`assert_graph_clean(module_or_fn, *args, max_breaks=0, **kwargs)`."""
    pytest.importorskip("torch", reason="graph_clean compiles the model: it needs torch")
    from breaklint.testing import assert_graph_clean

    return assert_graph_clean


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("breaklint")
    group.addoption(
        "--breaklint",
        action="store_true",
        help="lint each collected Python file with breaklint's static rules",
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if parent.config.getoption("breaklint") and file_path.suffix == ".py":
        found: BreaklintFile = BreaklintFile.from_parent(parent, path=file_path)
        return found
    return None


class BreaklintFile(pytest.File):
    def collect(self) -> list[pytest.Item]:
        return [BreaklintItem.from_parent(self, name="breaklint")]


class BreaklintFindings(Exception):
    """The file's findings, as the `full` format shows them."""


class BreaklintItem(pytest.Item):
    def runtest(self) -> None:
        from breaklint.config import Settings, find_pyproject, load_pyproject
        from breaklint.engine import lint_paths
        from breaklint.render import write_findings
        from breaklint.source import display_path

        # The project's [tool.breaklint] settings; the file on its own, as pre-commit lints it.
        found = find_pyproject(self.path.parent)
        settings = load_pyproject(found) if found else Settings()
        path = display_path(str(self.path))
        findings = lint_paths([path], settings, jobs=1, use_cache=False).findings
        if findings:
            out = io.StringIO()
            write_findings(findings, out)
            raise BreaklintFindings(out.getvalue().rstrip())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, BreaklintFindings):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"breaklint: {self.path.name}"
