from torch import Tensor


class Solver:
    def integrate(self, y: Tensor):  # inherited: reached through whichever class is made
        return y / y.abs().max().item()


class Euler(Solver):
    def correct(self, y: Tensor):
        return y * y.abs().max().item()


class Midpoint(Solver):
    def correct(self, y: Tensor):
        return y - y.abs().max().item()


class Heun(Solver):
    def correct(self, y: Tensor):  # nobody selects a Heun
        return y + y.abs().max().item()


def select(name):
    if name == "euler":
        return Euler
    return Midpoint
