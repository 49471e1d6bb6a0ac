"""Eager outputs compared across runs, value by value: `--fix` with probes keeps a file's fixes
only when each probe's outputs after them equal those before, and the fix-rate benchmark checks
the same. Needs torch; runs in the probe worker (and the benchmark's own runs).

Outputs are read as their values by path (`flatten`): tensors, Python numbers, strings and
None; inside tuples, lists, dicts, dataclasses (a Hugging Face `ModelOutput` is both) and other
objects' attributes (a key/value cache holds its tensors there), so two runs compare by what
the objects hold, never by identity. `difference` then takes tensors by
`torch.testing.assert_close` with its tolerances for their dtype (float32: rtol 1.3e-6,
atol 1e-5; float16: 1e-3, 1e-5; bfloat16: 1.6e-2, 1e-5; float64: 1e-7, 1e-7; integers and
booleans exactly), NaN equal to NaN at the same place, and other values by `==`.
"""

from __future__ import annotations

import cmath
import dataclasses
from typing import Any

import torch

# Values compared as they are (floats by `_same_number`).
_PLAIN = (bool, int, float, complex, str, bytes, type(None), torch.dtype, torch.device)
# Objects whose attributes are read this deep (a cache's layers' tensors are 3 levels down).
MAX_DEPTH = 12
MAX_VALUES = 10_000  # values read from one output; more are left out and the count kept


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectOf:
    """An object that is not itself a value (a cache, say): compared by its type; what its
    attributes hold is compared under its path."""

    type_name: str


def flatten(value: Any) -> dict[str, Any]:
    """The values inside `value` by path (`[0]`, `.logits`, `['key']`): tensors (detached, on
    the CPU), plain Python values, and an `ObjectOf` for each other object, whose attributes
    follow under its path; an object met again inside itself is not read twice."""
    found: dict[str, Any] = {}
    _walk(value, "", 0, found, set())
    return found


def _walk(value: Any, path: str, depth: int, found: dict[str, Any], open_ids: set[int]) -> None:
    if len(found) >= MAX_VALUES:
        found["..."] = ObjectOf("more values than are compared")
        return
    if isinstance(value, torch.Tensor):
        found[path] = value.detach().cpu()
    elif isinstance(value, _PLAIN):
        found[path] = value
    elif id(value) in open_ids or depth == MAX_DEPTH:
        found[path] = ObjectOf(type(value).__name__)
    else:
        open_ids.add(id(value))
        for name, item in _parts(value, found, path):
            _walk(item, path + name, depth + 1, found, open_ids)
        open_ids.discard(id(value))


def _parts(value: Any, found: dict[str, Any], path: str) -> list[tuple[str, Any]]:
    """The parts of a container or object by the name each adds to its path; an object that is
    not a plain container is recorded by its type first."""
    if isinstance(value, torch.nn.Module):
        found[path] = ObjectOf(type(value).__name__)
        return [(f".{name}", tensor) for name, tensor in value.state_dict().items()]
    if isinstance(value, dict):  # a ModelOutput is a dict of its fields that are set
        if type(value) is not dict:
            found[path] = ObjectOf(type(value).__name__)
        return [(f"[{key!r}]", item) for key, item in value.items()]
    if isinstance(value, tuple | list):
        if type(value) not in (tuple, list):
            found[path] = ObjectOf(type(value).__name__)
        return [(f"[{index}]", item) for index, item in enumerate(value)]
    if isinstance(value, type):
        found[path] = ObjectOf(f"class {value.__qualname__}")
        return []
    found[path] = ObjectOf(type(value).__name__)
    if dataclasses.is_dataclass(value):
        return [(f".{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value)]
    if callable(value):
        return []  # functions, bound methods: their type only
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict):
        return [(f".{name}", item) for name, item in attributes.items()]
    return []


def difference(got: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """How the values `got` differ from those `expected` (both from `flatten`), or None: the
    first values that differ, at most three."""
    found = [
        f"{path or 'the output'}: {why}"
        for path in [*expected, *(p for p in got if p not in expected)]
        if (why := _difference_at(path, got, expected))
    ]
    if not found:
        return None
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    return "; ".join(found[:3]) + more


def _difference_at(path: str, got: dict[str, Any], expected: dict[str, Any]) -> str | None:
    if path not in got:
        return f"missing (was {_kind(expected[path])})"
    if path not in expected:
        return f"{_kind(got[path])}, not there before"
    return _value_difference(got[path], expected[path])


def _value_difference(got: Any, expected: Any) -> str | None:
    if type(got) is not type(expected) and not (
        isinstance(got, torch.Tensor) and isinstance(expected, torch.Tensor)
    ):
        return f"{_kind(got)} instead of {_kind(expected)}"
    if isinstance(expected, torch.Tensor):
        return _tensor_difference(got, expected)
    if isinstance(expected, float | complex):
        return None if _same_number(got, expected) else f"{got!r} instead of {expected!r}"
    return None if got == expected else f"{got!r:.80} instead of {expected!r:.80}"


def _tensor_difference(got: torch.Tensor, expected: torch.Tensor) -> str | None:
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return f"{_kind(got)} instead of {_kind(expected)}"
    try:
        torch.testing.assert_close(got, expected, equal_nan=True, check_device=False)
    except AssertionError as unequal:
        return " ".join(str(unequal).split())
    return None


def _same_number(got: float | complex, expected: float | complex) -> bool:
    """Equal within float64's tolerance, NaN equal to NaN."""
    if cmath.isnan(got) or cmath.isnan(expected):
        return cmath.isnan(got) and cmath.isnan(expected)
    return got == expected or abs(got - expected) <= 1e-7 + 1e-7 * abs(expected)


def _kind(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        sizes = ", ".join(str(size) for size in value.shape)
        return f"a tensor ({sizes}) {str(value.dtype).removeprefix('torch.')}"
    if isinstance(value, ObjectOf):
        return f"a {value.type_name}"
    return f"a {type(value).__name__} ({value!r:.40})"
