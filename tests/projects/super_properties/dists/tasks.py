from torch.distributions import Normal

from dists.base import Gaussian


class Shifted(Gaussian):
    @property
    def mean(self):
        mean = super().mean
        offset = self.scale.sum()
        return mean + offset

    @property
    def variance(self):
        return super().variance * 2

    def standardise(self, x):
        return (x - self.mean) / self.variance

    def spread(self, x):
        return x * self.variance


class Folded(Normal):
    @property
    def mean(self):
        base = super().mean
        return base.view(-1)

    def centred(self, x):
        return x - self.mean
