"""breaklint's example corpus: realistic modules with real graph breaks and look-alikes.

A line ending in `# BREAK BL...` is where Dynamo 2.13 breaks the graph; `# SKIP BL...` is a
break that makes Dynamo skip the whole function; `# HOOK BL701` registers a hook that breaks.
The codes are the rules that flag the line (BL900 for a break no rule predicts).
tests/test_dynamic.py checks that breaklint's confirmed and dynamic findings are exactly these.
"""

import copy
import os

import numpy as np
import torch
from torch import nn


def scale_by_norm(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm().item()  # BREAK BL101


class Block(nn.Module):
    """A residual MLP block whose forward breaks in several ways."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.gate = nn.Parameter(torch.ones(()))
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        print("block input", x.shape)  # BREAK BL401
        h = self.fc(x)
        h = scale_by_norm(h)  # the break is inside the helper, at its `.item()`
        if h.abs().sum() > 0:  # BREAK BL201
            h = h * self.gate.item()  # BREAK BL101
        snapshot = copy.deepcopy(h.detach())  # BREAK BL501
        return x + snapshot


class Clean(nn.Module):
    """Look-alikes of breaking code that Dynamo traces into one graph."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.calls = 0

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        self.calls += 1  # RECOMPILE BL811
        assert (x.abs() >= 0).all()
        if x.shape[0] > 1 and self.training:
            x = x * 2
        if mask is not None:
            x = torch.where(mask, x, torch.zeros_like(x))
        total = np.sum(x.detach().numpy()) if os.environ.get("BREAKLINT_NEVER") else 0.0
        return self.fc(x) + total


class Hooked(nn.Module):
    """A forward hook that logs: the break is inside the hook."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.fc.register_forward_hook(report_shape)  # HOOK BL701

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x).relu()


def report_shape(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
    print("fc output", output.shape)  # BREAK BL401


class Looped(nn.Module):
    """A break inside a loop: Dynamo skips the whole forward."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for step in range(2):
            x = self.fc(x)
            print("step", step)  # SKIP BL202 BL401
        return x


def unreached(x: torch.Tensor) -> float:
    return x.sum().item()


class Repeated(nn.Module):
    """A layer applied a number of times given by the call: a compile for each number."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, times: int) -> torch.Tensor:
        for _ in range(times):  # RECOMPILE BL812
            x = self.fc(x).relu()
        return x
