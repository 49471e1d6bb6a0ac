"""Methods of numpy objects that Dynamo cannot trace, known from where the object is made: an
attribute `__init__` sets, and locals of a helper in a folder that is no package (`noise/`);
not the method of an array that a numpy call Dynamo cannot trace makes (`grid.sum()`)."""

import numpy as np
import torch
from torch import nn

from noise.seeds import seeded
from noise.warp import warped


class Model(nn.Module):
    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.rng = np.random.default_rng(seed)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x + 1
        jitter = self.rng.normal(size=4)
        h = h * torch.from_numpy(jitter).float()
        return warped(seeded(h))
