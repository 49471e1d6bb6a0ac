import torch

from api import odeint, odeint_made


class Decay(torch.nn.Module):
    def forward(self, t, y):
        return -y * t


class Solve(torch.nn.Module):
    def __init__(self, method):
        super().__init__()
        self.func = Decay()
        self.method = method

    def forward(self, y0, t):
        return odeint(self.func, y0, t, self.method)


class SolveMade(Solve):
    def forward(self, y0, t):
        return odeint_made(self.func, y0, t, self.method)
