"""Objects held in locals: a class a factory returns, made and its method called, and
tensors that flow through `__call__` of an object on an attribute and into untyped
helpers. `sde/` is no package: the repository runs from its root."""

import torch
from torch import nn

from sde.noise import Brownian
from sde.solvers import Quiet, select, shared_quiet


class Integrator(nn.Module):
    def forward(self, y: torch.Tensor, ts: torch.Tensor):
        solver_class = select("euler")
        solver = solver_class(Brownian())
        return solver.integrate(y, ts)


class Checker(nn.Module):
    def forward(self, y: torch.Tensor, ts: torch.Tensor):
        quiet = Quiet()
        h = quiet.integrate(y, ts)
        return h + 1


class Shared(nn.Module):
    def forward(self, y: torch.Tensor, ts: torch.Tensor):
        shared = shared_quiet()  # a factory's object, made before: Dynamo resumes after it
        h = shared.integrate(y, ts)
        return h + 1
