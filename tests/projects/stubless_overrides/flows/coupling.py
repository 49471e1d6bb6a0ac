import torch
from torch import nn

from flows import ops


class Coupling(nn.Module):
    def forward(self, inputs: torch.Tensor):
        half = inputs[:, 1:]
        return self._transform(half)


class Shifted(Coupling):
    def _transform(self, half):
        return ops.inside(half + 1)


class Clipped(Coupling):
    def _transform(self, half):
        return ops.rounded(half)
