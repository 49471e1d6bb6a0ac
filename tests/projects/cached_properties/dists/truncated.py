import math
from functools import cached_property

import torch


class Truncated:
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    @cached_property
    def log_norm(self):
        return self.scale.log() + 0.5 * math.log(2 * math.pi)

    def log_prob(self, x):
        return -0.5 * ((x - self.loc) / self.scale) ** 2 - self.log_norm


class Shifted(Truncated):
    def shifted_log_prob(self, x):
        return self.log_norm + x


class Table:
    def __init__(self, n):
        self.n = n

    @cached_property
    def weights(self):
        return torch.linspace(0, 1, self.n)

    def apply(self, x):
        return x * self.weights
