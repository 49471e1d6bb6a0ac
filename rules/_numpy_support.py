"""Which numpy functions Dynamo traces (through `torch._numpy`), without importing torch here.

Part of what `_knowledge.py` asks the installed torch, kept under this name for the engine,
which keys cached results on it.
"""

from __future__ import annotations

from breaklint.rules._knowledge import knowledge


def traced_numpy_functions() -> frozenset[str]:
    """Dotted names (`numpy.sum`, `numpy.linalg.norm`) that Dynamo traces through torch._numpy."""
    return knowledge().numpy_traced
