from torch import nn

from dists.tasks import Folded, Shifted


class ShiftedScore(nn.Module):
    def forward(self, x):
        dist = Shifted(x, x.abs() + 1)
        return dist.standardise(x * 2)


class ShiftedSpread(nn.Module):
    def forward(self, x):
        dist = Shifted(x, x.abs() + 1)
        return dist.spread(x) - 1


class FoldedScore(nn.Module):
    def forward(self, x):
        dist = Folded(x, x.abs() + 1, validate_args=False)
        return dist.centred(x) + 1
