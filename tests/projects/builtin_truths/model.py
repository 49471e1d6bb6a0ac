import torch
from torch import nn

from nets.checks import all_set, any_empty, any_flag, has_nan


class Guarded(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        parts = [x, x * 2]
        if has_nan(parts):
            return x
        return self.proj(x)


class Masked(nn.Module):
    def forward(self, x):
        keep = torch.ones(x.shape[0], dtype=torch.bool)
        if all_set(keep):
            x = x + 1
        if any_flag([True, False]) and not any_empty(x):
            x = x * 2
        return x
