"""What Dynamo does with numpy and Python's `random`, for the installed torch, without importing
torch here.

The answer (`generate.py`) is computed once per torch version in a subprocess and cached under
the user cache folder; without torch, or when that fails, the answer shipped for the newest
supported torch (`data/`, named by `versions.SHIPPED`) is used. The tensor method names are
those shipped: a static fact of the linter, the same whatever torch is installed.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from breaklint.knowledge.curated import NOT_VALUE_UPDATES
from breaklint.knowledge.generate import FUNCTION, METHOD, VARARGS, VERSION
from breaklint.knowledge.versions import SHIPPED, data_file


@dataclass(frozen=True, slots=True)
class IntegerParameters:
    """Where a torch function or tensor method takes only integers (sizes, dimensions, counts).

    Positions count `self` as 0, as in `torch.narrow(x, 0, 0, n)`; a method call's arguments
    start at 1.
    """

    function: bool  # callable as `torch.<name>(...)`
    method: bool  # callable as `tensor.<name>(...)`
    varargs: bool  # sizes may come one by one: `torch.zeros(2, 3)`, `x.view(2, 3)`
    positions: frozenset[int]
    keywords: frozenset[str]


@dataclass(frozen=True, slots=True)
class Knowledge:
    numpy_traced: frozenset[str]  # numpy functions Dynamo traces through torch._numpy
    # What traced numpy functions give from Python numbers when Dynamo knows it at trace
    # time: "float" (`numpy.sqrt`), "integer" (`numpy.lcm`) or "follows" the arguments
    # (`numpy.sum`); the others build arrays whose values it does not know (`numpy.zeros`).
    numpy_results: dict[str, str]
    # Traced `numpy.random` functions: [status, position of the size argument], status
    # "traced", "breaks" or "breaks-without-size".
    numpy_draws: dict[str, list[Any]]
    # `random` functions and classes Dynamo traces, and whether they give a "number".
    random_traced: dict[str, str]
    # For each kind of traced value (`generate.VALUES`), whether each use of it
    # (`generate.USES`) compiles to one graph.
    uses: dict[str, dict[str, bool]]
    _integer_parameters: dict[str, list[Any]]

    def integer_parameters(self, name: str) -> IntegerParameters | None:
        entry = self._integer_parameters.get(name)
        if entry is None:
            return None
        flags, positions, keywords = entry
        return IntegerParameters(
            bool(flags & FUNCTION),
            bool(flags & METHOD),
            bool(flags & VARARGS),
            frozenset(positions),
            frozenset(keywords),
        )


def _cache_file(torch_version: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "breaklint" / f"dynamo-knowledge-{VERSION}-torch-{torch_version}.json"


def _query_torch() -> dict[str, Any] | None:
    """Ask the installed torch, in a subprocess (imported here: a cached answer never pays)."""
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-m", "breaklint.knowledge.generate"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        answer = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return answer if isinstance(answer, dict) else None


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
def shipped() -> dict[str, Any]:
    """The answer shipped for the newest supported torch, read as package data."""
    path = Path(__file__).parent / "data" / data_file(SHIPPED)
    answer: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return answer


# Public method names of `torch.Tensor`, as shipped.
TENSOR_METHOD_NAMES = frozenset(shipped()["tensor_methods"])
# Public functions (`torch.linalg.lstsq`) and tensor methods (`Tensor.nonzero`) whose output
# size depends on the data (`generate.dynamic_output_shape`), as shipped.
DYNAMIC_OUTPUT_SHAPE = frozenset(shipped()["dynamic_output_shape"])
# Where torch functions, tensor methods (`Tensor.add`) and `torch.nn.functional` functions read
# a tensor given as a Python number (`generate.number_parameters`), as shipped: {name:
# {parameter: position}}, one table for parameters alone, one for linked sets (`clamp`'s
# bounds: a number for one makes a tensor for another a number).
NUMBER_PARAMETERS: dict[str, dict[str, int]] = shipped()["number_parameters"]["single"]
LINKED_NUMBER_PARAMETERS: dict[str, dict[str, int]] = shipped()["number_parameters"]["linked"]
# What validating a `torch.distributions` distribution breaks in compiled code
# (`generate.distribution_validation`), as shipped: the constructors that break with
# `validate_args=True`, and whether `set_default_validate_args` breaks.
DISTRIBUTION_VALIDATION: dict[str, Any] = shipped()["distribution_validation"]

# In-place methods that update a tensor's values as their out-of-place twin computes them
# (`t.add_(u)` writes `t.add(u)`), and `copy_`, which writes its argument.
VALUE_UPDATE_METHODS = frozenset(
    name
    for name in TENSOR_METHOD_NAMES
    if name.endswith("_")
    and not name.endswith("__")
    and name[:-1] in TENSOR_METHOD_NAMES
    and name not in NOT_VALUE_UPDATES
) | {"copy_"}


@cache
def _answer() -> dict[str, Any]:
    version = _torch_version()
    if version is None:
        return shipped()
    path = _cache_file(version)
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cached = None
    if isinstance(cached, dict):
        return cached
    answer = _query_torch()
    if answer is None:
        return shipped()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: worker processes may read it at the same time.
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(answer), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass  # a read-only home still gets the right answer, just not cached
    return answer


@cache
def knowledge() -> Knowledge:
    answer = _answer()
    return Knowledge(
        frozenset(answer["numpy_traced"]),
        answer["numpy_results"],
        answer["numpy_draws"],
        answer["random_traced"],
        answer["uses"],
        answer["integer_parameters"],
    )


def fingerprint() -> str:
    """Changes whenever the knowledge does: for keys of cached lint results."""
    import hashlib

    return hashlib.sha256(json.dumps(_answer(), sort_keys=True).encode()).hexdigest()
