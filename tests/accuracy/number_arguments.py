"""Tensors where torch reads a Python number: a bound of `clamp` whose other bound is a number,
a slope, an `alpha`, a fill value break ("Data dependent operator"); `clamp` with tensor bounds
only, `torch.full` of a tensor value and tensor operands do not."""

import torch
import torch.nn.functional as F


class Capacity(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c_max = torch.Tensor([25.0])
        self.slope = torch.tensor(0.2)

    def forward(self, x, y):
        capped = torch.clamp(x, 0, self.c_max.data[0])  # BREAK BL304
        below = torch.clamp(x, None, self.c_max[0])
        raised = x.clamp(min=self.c_max[0] * 0)
        return capped + below + raised + x * self.c_max[0]


class Leaky(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.slope = torch.tensor(0.2)

    def forward(self, x, y):
        z = F.leaky_relu(x, self.slope)  # BREAK BL304
        return z.add(y, alpha=self.slope)  # BREAK BL304


def filled(x):
    scale = x.amax()
    return torch.full((2,), scale) + torch.full_like(x, scale)  # BREAK BL304


compiled_capacity = torch.compile(Capacity())
compiled_leaky = torch.compile(Leaky())
compiled_filled = torch.compile(filled)


def probe_capacity():
    return Capacity(), (torch.randn(2), torch.randn(2))


def probe_leaky():
    return Leaky(), (torch.randn(2), torch.randn(2))


def probe_filled():
    return filled, (torch.randn(2),)
