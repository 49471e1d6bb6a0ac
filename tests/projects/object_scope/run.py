"""Scope through objects whose class is known only from values: an instance of a class a
factory function returns, and the elements of a container attribute that a constructor's
callers fill. `solvers/` and `flows/` are no packages: the repository runs from its root."""

import torch
from torch import nn

from flows.chain import Chain, Flow
from flows.everything import Halve, Scale, Shift  # through `import *`
from solvers.methods import select
from solvers.registry import POSTS, STEPPERS


class Integrator(nn.Module):
    def __init__(self, method: str):
        super().__init__()
        self.method = method

    def forward(self, x: torch.Tensor):
        solver_class = select(self.method)  # `Euler` or `Midpoint`, not `Heun`
        solver = solver_class()
        h = solver.integrate(x)
        return solver.correct(h)


def build_flow():
    return Flow([Shift(), Shift()])


def build_chain():
    steps = [Scale()]
    steps += [Scale()]
    return Chain(steps)


class Stepper(nn.Module):
    def forward(self, x: torch.Tensor):
        stepper_class = STEPPERS["forward"]  # a class looked up in a module-level dict
        h = stepper_class().advance(x)
        return POSTS[0](h)  # a function held in a module-level list


def build_appended():
    steps = []
    steps.append(Halve())
    return Chain(steps)
