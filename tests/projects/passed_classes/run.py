import functools

import torch

from sampling.predictors import Euler, Heun, Langevin
from sampling.steps import Sampler, Schedule, predicted


@torch.compile(backend="eager")
def sample(x):
    return predicted(x, Euler, Schedule(4))


def heun_sampler():
    return functools.partial(predicted, predictor=Heun)


def build(steps):
    return Sampler(Langevin, steps)


@torch.compile(backend="eager")
def corrected(sampler, x):
    return sampler.run(x)


def main():
    x = torch.randn(2, 3)
    sample(x)
    corrected(build(4), x)
    torch.compile(heun_sampler(), backend="eager")(x, sde=Schedule(4))
