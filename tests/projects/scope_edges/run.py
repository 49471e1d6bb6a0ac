"""Mechanism 3: what Dynamo traces through aliases, attributes, containers, partial,
instances made at module level, `torch.autograd.Function.apply`, and a source root that is no package (`module/` has no
`__init__.py`)."""

import functools

import torch
from torch import nn

from module import commons
from module.functions import Clamp, Scale
from module.processors import AttnProcessor, Scheduler
from module.registry import collected, collector


class Model(nn.Module):
    def __init__(self, tails: bool):
        super().__init__()
        self.tails = tails
        self.processor = AttnProcessor()
        self.scheduler = Scheduler()
        self.activation = functools.partial(commons.gelu, approximate=True)
        self.ops = {"double": commons.double}

    def forward(self, x: torch.Tensor):
        transform = commons.spline if self.tails else commons.plain
        h = transform(x)
        h = self.processor(h)
        h = self.scheduler.step(h)
        h = self.activation(h)
        h = Clamp.apply(h)  # a `torch.autograd.Function`
        h = Scale.apply(h)
        if collector.get() is None:  # a method of an instance made at module level
            return h
        return self.ops["double"](collected(h))


def main():
    model = Model(tails=True)
    return torch.compile(model)(torch.randn(4))
