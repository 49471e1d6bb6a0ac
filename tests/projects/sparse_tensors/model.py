import torch
from torch import nn

from ops import interp


class Smoother(nn.Module):
    def forward(self, x):
        h = interp.spread(x * 2)
        return h + 1
