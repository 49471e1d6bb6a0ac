"""A `functools.cached_property` read on an object made in compiled code runs its getter under
an `RLock` Dynamo cannot enter (Python before 3.12): the frame is skipped. Not for an object
made in `__init__`, whose value an eager call computed first."""

import torch
from torch import nn

from dists.truncated import Shifted, Table, Truncated


class Density(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = Table(3)

    def forward(self, loc: torch.Tensor, scale: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return self.table.apply(Truncated(loc, scale).log_prob(x))


class ShiftedDensity(nn.Module):
    def forward(self, loc: torch.Tensor, scale: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return Shifted(loc, scale).shifted_log_prob(x)
