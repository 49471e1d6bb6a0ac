"""Which numpy functions Dynamo traces (through `torch._numpy`), without importing torch here.

The answer depends on the installed torch. It is computed once per torch version in a
subprocess and cached under the user cache folder; without torch, or when that fails, the
list shipped for torch 2.13 (`_numpy_traced.py`) is used.
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from pathlib import Path

from breaklint.rules._numpy_traced import TRACED as SHIPPED

# Dynamo maps a numpy function to torch._numpy when the same name exists in both modules
# (torch/_dynamo/variables/misc.py, get_np_to_tnp_map); this lists those names.
_QUERY = """
import json, sys
from torch._dynamo.utils import NP_TO_TNP_MODULE
names = sorted(
    f"{np_mod.__name__}.{name}"
    for np_mod, tnp_mod in NP_TO_TNP_MODULE.items()
    for name, value in vars(tnp_mod).items()
    if callable(value) and getattr(np_mod, name, None) is not None
)
json.dump(names, sys.stdout)
"""


def _cache_file(torch_version: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "breaklint" / f"numpy-traced-torch-{torch_version}.json"


def _query_torch() -> list[str] | None:
    """Ask the installed torch, in a subprocess (imported here: a cached answer never pays)."""
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-c", _QUERY], capture_output=True, text=True, timeout=120, check=True
        )
        return json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def _torch_version() -> str | None:
    """The installed torch's version, read from its `.dist-info` folder's name (importing
    importlib.metadata cost more than the rest of a run answered from the cache)."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("torch-") and name.endswith(".dist-info"):
                return name.removeprefix("torch-").removesuffix(".dist-info")
    return None


@cache
def traced_numpy_functions() -> frozenset[str]:
    """Dotted names (`numpy.sum`, `numpy.linalg.norm`) that Dynamo traces without a break."""
    version = _torch_version()
    if version is None:
        return SHIPPED
    path = _cache_file(version)
    try:
        return frozenset(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass
    names = _query_torch()
    if names is None:
        return SHIPPED
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(names), encoding="utf-8")
    except OSError:
        pass  # a read-only home still gets the right answer, just not cached
    return frozenset(names)
