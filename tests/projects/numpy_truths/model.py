"""Mechanism 4: numpy results joined by `or` and `and` in compiled code: Dynamo 2.13 traces
numpy calls as tensors, so Python reading the truth of an operand to pick the value
(`bad = np.any(low != 0) or np.any(high != 255)`) breaks ("Data-dependent branching"), and
so does a branch on the value it picked (`if check and bad:`). A helper of a folder that is
no package (`spaces/`) reads the bounds of a space object the model holds."""

import torch
from torch import nn

from spaces.checks import is_image_space


class Policy(nn.Module):
    def __init__(self, space) -> None:
        super().__init__()
        self.space = space

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if is_image_space(self.space):
            return x / 255.0
        return x
