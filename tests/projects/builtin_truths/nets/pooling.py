import torch
from torch import nn


class LengthPool(nn.Module):
    def forward(self, x, lengths):
        valid = torch.arange(x.shape[1])[None, :] < lengths[:, None]
        pooled = []
        for i in range(x.shape[0]):
            pooled.append(x[i, : lengths[i]].mean(0))
        return torch.stack(pooled), valid


class Crop(nn.Module):
    def forward(self, x, width):
        return x[:, :width]
