import torch
from torch import nn

from ops.anchors import grid_sizes
from ops.levels import first_width


class Anchors(nn.Module):
    def forward(self, x):
        size = torch.tensor([x.shape[-1], x.shape[-2]], dtype=torch.float32)
        return grid_sizes(size) + first_width(size) + x.sum()
