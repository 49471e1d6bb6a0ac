"""`functools.cached_property` under Dynamo (Python before 3.12): an object made in compiled
code computes it under an `RLock` Dynamo cannot enter, and the frame is skipped, the caller's
too; an object made before the compiled call, and a plain `@property`, trace."""

import functools

import torch
from torch import nn


class Whitening:
    def __init__(self, cov: torch.Tensor) -> None:
        self.cov = cov

    @functools.cached_property
    def root(self) -> torch.Tensor:
        return torch.linalg.cholesky(self.cov)

    @property
    def diagonal(self) -> torch.Tensor:
        return self.cov.diagonal()

    def whiten(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.root  # BREAK BL511

    def scale(self, x: torch.Tensor) -> torch.Tensor:
        return x / self.diagonal


def whitened(x):
    cov = x.T @ x + torch.eye(x.shape[1])
    return Whitening(cov).whiten(x)  # BREAK BL208


def scaled(x):
    cov = x.T @ x + torch.eye(x.shape[1])
    return Whitening(cov).scale(x)


class HeldWhitening(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.whitening = Whitening(torch.eye(4) * 2)

    def forward(self, x):
        return self.whitening.whiten(x)


compiled_whitened = torch.compile(whitened)
compiled_scaled = torch.compile(scaled)


def probe_whitened():
    return whitened, (torch.randn(3, 4),)


def probe_scaled():
    return scaled, (torch.randn(3, 4),)


def probe_held():
    return HeldWhitening(), (torch.randn(3, 4),)
