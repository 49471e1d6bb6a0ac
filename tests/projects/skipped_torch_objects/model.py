"""Mechanism 4: objects of torch classes whose code Dynamo 2.13 skips (its `quasirandom`
module): making a `SobolEngine` in compiled code, and calling a method of one held in a
local or in an attribute `__init__` sets (here and in a class of another module), breaks
the graph at each call ("Attempted to inline function marked as skipped"). Not a method of
the same name on another object."""

import torch
from torch import nn
from torch.quasirandom import SobolEngine

from noise.engines import QuasiNormal, Steady


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.normal = QuasiNormal(4, seed=0)
        self.steady = Steady()

    def forward(self, x: torch.Tensor):
        h = x * 2
        h = h + self.normal.draw(x.shape[0])
        h = h + self.steady.draw(x.shape[0])
        engine = SobolEngine(dimension=4, seed=1)
        h = h - 1
        return h + engine.draw(x.shape[0])
