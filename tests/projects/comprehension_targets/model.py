import torch
from torch import nn

from sde.checks import is_increasing, sizes, spans


class Solver(nn.Module):
    def forward(self, x, ts):
        ts = ts.cumsum(0)
        if not is_increasing(ts):
            raise ValueError("times must increase")
        return x * ts[-1]


class Stepper(nn.Module):
    def forward(self, x):
        ts = torch.linspace(0, 1, 4)
        widths = sizes(x.shape)
        return x * sum(spans(ts)) + widths[0]
