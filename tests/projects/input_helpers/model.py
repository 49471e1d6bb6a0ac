from torch import nn

from ops.moments import doubled, moments, spread


class Standardize(nn.Module):
    def forward(self, x):
        mean, std = moments(x)
        if float(std) == 0.0:
            return x - mean
        return (x - mean) / std


class Rescale(nn.Module):
    def forward(self, x):
        width = spread(x)
        steps = int(width * 10)
        return doubled(x)[: x.shape[0]] / (steps + 1)
