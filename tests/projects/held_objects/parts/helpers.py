from torch import Tensor


class Interpolation:
    def interpolate(self, x: Tensor):
        return x / x.abs().max().item()


class Helper:
    def __init__(self, factor):
        self.factor = factor

    def run(self, x: Tensor):
        return x / x.abs().max().item()


class Norm:
    def apply(self, x: Tensor):
        return x / x.abs().max().item()


def make_norm():
    return Norm()
