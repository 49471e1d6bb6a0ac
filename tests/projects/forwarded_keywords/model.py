"""Keyword arguments passed on through `**kwargs`: an object a constructor's caller passes
reaches the attribute a base class's `__init__` sets (`super().__init__(sde=sde,
**kwargs)`), and a tensor passed by keyword reaches a helper's parameter through two
`**options`; a number passed the same way decides nothing (folders that are no packages)."""

import torch
from torch import nn

from noise import Brownian
from solvers.euler import Euler
from solvers.steps import stepped


class Drift(nn.Module):
    def f(self, y):
        return -y

    def forward(self, y: torch.Tensor, ts: torch.Tensor) -> torch.Tensor:
        solver = Euler(sde=self, bm=Brownian(y.shape), dt=0.1)
        y = solver.advance(y, ts[0], ts[1])
        y = stepped(y, scale=y.mean(), limit=3)
        return y
