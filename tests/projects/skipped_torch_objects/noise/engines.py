import math

import torch
from torch.quasirandom import SobolEngine


class QuasiNormal:
    def __init__(self, d, seed=None):
        self._engine = SobolEngine(dimension=2 * math.ceil(d / 2), scramble=True, seed=seed)
        self._d = d

    def draw(self, n):
        points = self._engine.draw(n)
        return points[:, : self._d] * 2 - 1


class Steady:
    def __init__(self):
        self._engine = torch.zeros(4)

    def draw(self, n):
        return self._engine.expand(n, 4)
