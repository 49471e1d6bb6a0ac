from torch import nn

from registry import steps
from registry.steps import NoisyStep, Shift, Step


class Noisy(nn.Module):
    def forward(self, x):
        return x * NoisyStep(x.mean()).scale + 1


class Constant(nn.Module):
    def forward(self, x):
        # Only constants: Dynamo runs the metaclass's `__call__` as it is, no frame of its own.
        return x * NoisyStep(2.0).scale + 1


class Clean(nn.Module):
    def forward(self, x):
        return Step(2.0).apply(x) + Shift(x.sum()).shift


class Looped(nn.Module):
    def forward(self, x):
        for i in range(2):
            print("round", i)
            x = x + steps.Shift(x.mean()).shift
        return x * 2
