from torch import Tensor

from parts.ops import halve


class Halving:
    def __call__(self, x: Tensor):
        return x / x.abs().max().item()

    def shrink(self, x: Tensor):
        return halve(x)

    def unused(self, x: Tensor):
        return x / x.abs().max().item()


class Doubling:
    def __call__(self, x: Tensor):  # nobody passes a Doubling
        return x / x.abs().max().item()


class Scaler:
    def __call__(self, x: Tensor):
        return x / x.abs().max().item()


class Clipping:
    def __call__(self, x: Tensor):  # only the probes' builder passes one
        return x.clamp(-1, 1) / x.abs().max().item()
