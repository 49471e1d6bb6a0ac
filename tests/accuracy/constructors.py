"""Making an instance in compiled code traces its `__init__`, or a dataclass's
`__post_init__`: a break there is a break of the caller."""

import warnings
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Scaled:
    value: torch.Tensor

    def __post_init__(self):
        warnings.warn("Scaled is deprecated")  # BREAK BL403


@dataclass
class Doubled:
    value: torch.Tensor

    def __post_init__(self):
        self.value = self.value * 2


def scaled(x):
    y = x * 2
    return Scaled(y).value + 1


def doubled(x):
    return Doubled(x).value + 1


compiled_scaled = torch.compile(scaled)
compiled_doubled = torch.compile(doubled)


def probe_dataclass_post_init():
    return scaled, (torch.randn(4, 3),)


def probe_quiet_post_init():
    return doubled, (torch.randn(4, 3),)


class Solver:
    def __init__(self, scale, method="euler"):
        self.scale = scale
        # a bound method of its own, chosen once: Dynamo cannot rebuild the object after a break
        self.step = {"euler": self.euler}.get(method, self.midpoint)

    def euler(self, x):
        return x * self.scale

    def midpoint(self, x):
        return x * self.scale / 2


def solved(x):
    solver = Solver(0.5)
    print("solving")  # SKIP BL401 BL209
    return solver.step(x)


compiled_solved = torch.compile(solved)


def probe_solver_with_bound_step():
    return solved, (torch.randn(4, 3),)


class Peak(nn.Module):
    def __init__(self, x):
        # making it breaks (below): the caller runs it eagerly, a frame Dynamo skips here
        super().__init__()  # SKIP BL211
        self.peak = x.abs().max().item()  # BREAK BL101


def normalised(x):
    return x / Peak(x).peak


compiled_normalised = torch.compile(normalised)


def probe_module_made_while_breaking():
    return normalised, (torch.randn(4, 3),)
