import torch
from torch import nn


class CheckedLinear(nn.Linear):
    def forward(self, x):
        y = super().forward(x)
        if y.isnan().any():
            y = torch.nan_to_num(y)
        return y
