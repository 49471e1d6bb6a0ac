"""Objects whose attributes hold bound methods of their own, made in functions that break
after making them (BL209), reached through a folder that is no package (`blocks/`)."""

import torch
from torch import nn

from blocks.solve import not_held, solve, through_callee, two_steps, values


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return solve(x) + through_callee(x) + not_held(x) + values(x) + two_steps(x)
