import torch


class Brownian:
    def __init__(self, size):
        self.size = size

    def __call__(self, ta, tb):
        ta = float(ta)
        return torch.ones(self.size) * (tb - ta)

    def f(self, y):
        print("a drift of the noise: never called by the solvers")
        return y
