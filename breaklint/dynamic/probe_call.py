"""A probe's call, made ready in a worker: its file imported, its function called under a fixed
seed, its return value unpacked and moved to the device; and what a probe raised, as a result
reports it. Shared by the probe run (`worker`) and `breaklint graph` (`graph`)."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from breaklint.calls import Call
from breaklint.dynamic import variants
from breaklint.dynamic.model import Probe, ProbeError

_TRACEBACK_FRAMES = 6


@cache
def load(path: str) -> ModuleType:
    """The probe file imported, once per worker."""
    name = "breaklint_probe_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ProbeError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def unpack(
    probe: Probe, returned: Any
) -> tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]:
    shape = "(callable, args) or (callable, args, kwargs)"
    if not isinstance(returned, tuple) or len(returned) not in (2, 3):
        raise ProbeError(f"{probe.name} must return {shape}, got {type(returned).__name__}")
    target, args, kwargs = returned if len(returned) == 3 else (*returned, {})
    if not callable(target):
        raise ProbeError(f"{probe.name} returned a {type(target).__name__}, not a callable")
    if not isinstance(args, tuple | list) or not isinstance(kwargs, dict):
        raise ProbeError(f"{probe.name} must return {shape} with a tuple and a dict")
    return target, tuple(args), kwargs


def to_device(value: Any, device: str) -> Any:
    """Tensors and modules in `value` (nested in tuples, lists and dicts) moved to `device`."""
    import torch

    if isinstance(value, torch.nn.Module):
        return value.to(device)
    if isinstance(value, torch.Tensor):
        moved = value.to(device)
        if moved is not value:
            # A new tensor: the Python attributes set on the probe's own go with it, the
            # marks of `torch._dynamo.mark_static` / `mark_dynamic` among them.
            moved.__dict__.update(vars(value))
        return moved
    if isinstance(value, tuple | list):
        items = [to_device(item, device) for item in value]
        if hasattr(value, "_fields"):  # a namedtuple takes its fields one by one
            return type(value)(*items)
        return type(value)(items)
    if isinstance(value, dict):
        return {key: to_device(item, device) for key, item in value.items()}
    return value


def seed() -> None:
    """The same weights, inputs and random draws on every run, so that runs can be compared:
    Python's, torch's and, once the probe has imported it, numpy's global random stream (a
    model that draws from it, SpecAugment's masks say, gives other outputs on every run)."""
    import random

    import torch

    random.seed(0)
    torch.manual_seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(0)


def planned_call(probe: Probe, device: str) -> variants.CallPlan:
    """What the probe function returns, as a plan whose calls are on `device`."""
    function = getattr(load(probe.path), probe.name, None)
    if not callable(function):
        raise ProbeError(f"{probe.name} is not a function of {probe.path}")
    seed()
    calls = variants.plan(function(), lambda returned: unpack(probe, returned))
    calls.target = to_device(calls.target, device)
    calls.args, calls.kwargs = to_device(calls.args, device), to_device(calls.kwargs, device)
    if calls.calls is not None:
        calls.calls = [
            Call(*to_device(c.args, device), **to_device(c.kwargs, device)) for c in calls.calls
        ]
    return calls


@dataclass(frozen=True, slots=True)
class Failure:
    error: str  # one line: the exception
    traceback: str | None  # its tail, None for a ProbeError


def failure(error: BaseException, device: str) -> Failure:
    """What a probe raised on `device`, as a result reports it; a KeyboardInterrupt is raised
    again."""
    if isinstance(error, KeyboardInterrupt):
        raise error
    message = one_line(error)
    if device != "cpu" and needs_the_cpu(error, device):
        message += (
            f" (the probe ran on {device}; --device cpu runs a model that makes its tensors there)"
        )
    return Failure(message, None if isinstance(error, ProbeError) else _traceback_tail(error))


def one_line(error: BaseException) -> str:
    """The exception's type and the first line of its message."""
    return f"{type(error).__name__}: {error}".strip().splitlines()[0]


def needs_the_cpu(error: BaseException, device: str) -> bool:
    """Whether torch refused to mix a CPU tensor (or generator) with the probe's `device`: a
    model written for the CPU (`torch.arange(n)` in a forward, `.numpy()`) or an op that takes
    one argument on the CPU only (`pack_padded_sequence`'s lengths: "'lengths' argument should
    be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor"), not a break. The whole message
    is read: Dynamo's fake tensors say it below their first line ("RuntimeError when making
    fake tensor call ... found two different devices cpu, cuda:0", seen on an H200)."""
    message = str(error).lower()
    return "cpu" in message and (device in message or bool(re.search(r"\bdevices?\b", message)))


def _traceback_tail(error: BaseException) -> str:
    """The user's frames of the traceback, not the worker's, and the exception."""
    ours = os.path.dirname(__file__)  # the worker's frames and its request handlers
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if os.path.dirname(f.filename) != ours
    ]
    lines = traceback.format_list(frames[-_TRACEBACK_FRAMES:])
    return "".join(["Traceback (most recent call last):\n", *lines]) + "".join(
        traceback.format_exception_only(error)
    )
