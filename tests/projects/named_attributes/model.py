"""Methods and modules called only through `getattr` with a name built in code: an f-string,
`%`, `+`, and `str.format` in a method that returns what `getattr` reads (one of a
subclass's methods)."""

import torch
from torch import nn

from blocks.reducers import Divisor


class Loud(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + x.sum().item()


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block1 = Loud()
        self.block2 = Loud()
        self.reducer = Divisor()

    def layer1(self, x: torch.Tensor) -> torch.Tensor:
        return x * x.sum().item()

    def scale_forward(self, x: torch.Tensor) -> torch.Tensor:
        return x - x.mean().item()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i in range(1, 3):
            x = getattr(self, f"block{i}")(x)
        x = getattr(self, "layer%d" % 1)(x)
        name = "scale"
        x = getattr(self, name + "_forward")(x)
        return self.reducer(x)
