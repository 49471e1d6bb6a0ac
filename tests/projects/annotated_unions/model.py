import torch
from torch import nn

from timing.spans import clipped, span


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        h = span(x, x.min(), x.max())
        return clipped(h, x.mean()) + clipped(h, 2.0)
