from torch import nn

from solvers.checks import prepare, prepare_plain, prepare_unchecked


class Solve(nn.Module):
    def forward(self, x):
        stepper, y = prepare(x, "euler")
        return stepper.step(y)


class SolvePlain(nn.Module):
    def forward(self, x):
        stepper, y = prepare_plain(x)
        return stepper.step(y)


class SolveUnchecked(nn.Module):
    def forward(self, x):
        stepper, y = prepare_unchecked(x, "midpoint")
        return stepper.step(y)
