from torch import Tensor


def halve(x: Tensor):  # reached only through Halving.shrink
    return x / x.abs().max().item()


def unused(x: Tensor):
    return x / x.abs().max().item()
