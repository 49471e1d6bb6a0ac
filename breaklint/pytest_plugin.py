"""breaklint's pytest plugin, registered through the `pytest11` entry point.

Inert unless used: importing it imports neither torch nor the rules. It offers the
`graph_clean` fixture, which is `breaklint.testing.assert_graph_clean` and skips the test when
torch is not installed:

    def test_model_compiles_to_one_graph(graph_clean):
        graph_clean(MyModel(), torch.randn(2, 8))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def graph_clean() -> Callable[..., Any]:
    """`assert_graph_clean(module_or_fn, *args, max_breaks=0, **kwargs)`."""
    pytest.importorskip("torch", reason="graph_clean compiles the model: it needs torch")
    from breaklint.testing import assert_graph_clean

    return assert_graph_clean
