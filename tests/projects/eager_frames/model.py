"""Mechanism 2: comprehensions that Python 3.11 runs as frames of their own, in functions
whose frame Dynamo skips (a break in a loop, a break in a `try` body), reached through a
folder that is no package (`blocks/`)."""

from torch import nn

from blocks.flags import Flags
from blocks.guarded import guarded
from blocks.pick import pick


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.flags = Flags()

    def forward(self, x, order: list):
        h, labels = pick(x, order)
        outs, scale = guarded(h, order)
        y, chosen = self.flags(x, order)
        return outs[0] * scale + y, labels, chosen
