import torch
from torch import nn

from blocks.flagged import Flagged, shared
from blocks.guarded import counted, quiet, resumed
from blocks.stacked import stacked


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.flagged = Flagged(quiet=True)

    def forward(self, x, order):
        h = quiet(x, order)
        h = counted(h)
        h = resumed(h)
        h = self.flagged(h, order)
        h = shared(h, True)
        return stacked(h)
