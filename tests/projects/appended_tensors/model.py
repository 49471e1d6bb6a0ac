"""Lists that a loop fills with `append`: of tensors, their sum and elements are tensors."""

import torch
from torch import nn

from losses import quantile


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 3)

    def forward(self, x, target):
        return quantile.pinball(self.head(x), target)
