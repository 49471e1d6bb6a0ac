"""Scope through objects: a method of an object made inline, `__call__` and methods of what
a constructor's callers pass (through `super().__init__`), of an annotation's class, and of
what a function returns; the module functions reached only through them. `parts/` is no
package: the repository runs from its root."""

import torch
from torch import nn

from parts.blocks import Block
from parts.helpers import Helper, Interpolation, make_norm
from parts.strategies import Halving, Scaler


class Model(Block):
    def __init__(self, strategy, scaler: Scaler):
        super().__init__(strategy)
        self.scaler = scaler

    def forward(self, x: torch.Tensor):
        h = Interpolation().interpolate(x)  # a method of an object made inline
        helper = Helper(2)
        h = helper.run(h)  # ...and of one bound from a constructor
        h = self.strategy(h)  # `__call__` of what `build` passes, through `Block.__init__`
        h = self.strategy.shrink(h)  # a method of it
        h = self.scaler(h)  # `__call__` of the annotation's class
        h = self.mix(h)  # `Block.mix` calls `self.blend`: this class's override
        return make_norm().apply(h)  # a method of what `make_norm` returns

    def blend(self, x: torch.Tensor):
        return x / x.abs().max().item()


def build():
    return Model(Halving(), Scaler())


class Pipeline(nn.Module):
    """Compiled by the probes only, holding what their builder passes."""

    def __init__(self, stage):
        super().__init__()
        self.stage = stage

    def forward(self, x: torch.Tensor):
        return self.stage(x)
