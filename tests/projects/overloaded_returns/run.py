import torch

from effects.handlers import record, sampler


def double(x):
    return x * 2


@torch.compile(backend="eager")
def recorded(x):
    return record(double, scale=0.5).run(x)


@torch.compile(backend="eager")
def sampled(x):
    return sampler(3).draw(x)


def main():
    x = torch.randn(4, 3)
    recorded(x)
    sampled(x.abs())
