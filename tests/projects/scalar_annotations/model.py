import torch
from torch import nn

from pool.repeat import repeat
from pool.select import Select, scaled


class Pyramid(nn.Module):
    def __init__(self, ratios=0.5, depth=2):
        super().__init__()
        self.ratios = repeat(ratios, depth)
        self.selects = nn.ModuleList([Select(self.ratios[i]) for i in range(depth)])

    def forward(self, x):
        for select in self.selects:
            x = select(x)
        return x


class Scaled(nn.Module):
    def forward(self, x):
        return scaled(x, x.abs().max())
