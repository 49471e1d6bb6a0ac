"""Modules that initialise themselves on their first forward: a user's first compiled call runs
the initialisation, and breaks there, while every later call skips it (a flag set, a buffer
filled), or takes a path of its own that breaks elsewhere."""

import warnings

import torch
from torch import nn


class Codebook(nn.Module):
    """Starts its codes from the first batch, as k-means initialisation does."""

    def __init__(self, codes: int, dim: int) -> None:
        super().__init__()
        self.embed = nn.Parameter(torch.zeros(codes, dim))
        self.initted = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.initted:
            self.start(x)
            self.initted = True
        return torch.cdist(x, self.embed).argmin(dim=-1)

    def start(self, x: torch.Tensor) -> None:
        print("initialising the codebook")
        picked = x[: self.embed.shape[0]]
        self.embed.data.copy_(picked)


class Scaled(nn.Module):
    """Measures its scale from the first input it sees."""

    def __init__(self) -> None:
        super().__init__()
        self.scale: float | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.scale is None:
            self.scale = x.abs().max().item()
        return x / self.scale


class Smoothed(nn.Module):
    """Starts a running mean on its first call; later calls blend into it and warn."""

    def __init__(self) -> None:
        super().__init__()
        self.mean: torch.Tensor | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.mean is None:
            self.mean = x.detach().mean(0)
        else:
            self.mean = 0.9 * self.mean + 0.1 * x.detach().mean(0)
            warnings.warn("blending into the running mean")
        return x - self.mean
