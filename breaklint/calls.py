"""What a probe may return to run its callable on several calls (plain Python, no torch)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Call:
    """One call's arguments: `Call(x, 3, flag=True)`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"Call(args={self.args!r}, kwargs={self.kwargs!r})"


@dataclass(frozen=True)
class Calls:
    """A probe's callable and the calls to run it on, in order. The first is the probe's call,
    whose graph breaks are reported; Dynamo's compilations are counted over all of them (no
    variants are derived). `recompile_limit` sets `torch._dynamo.config.recompile_limit` for
    them, as a training run may (None: torch's own)."""

    target: Callable[..., Any]
    calls: list[Call] = field(default_factory=list)
    recompile_limit: int | None = None
