"""Python's `math` on a tensor reads its value, as `float(t)` does; on Python numbers (a
size, a config value) it traces."""

import math

import torch
from torch import nn


class ScaledAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, q, k):
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dim)
        return scores.softmax(-1)


def normalised(x):
    energy = x.pow(2).sum()
    return x / math.sqrt(energy)  # BREAK BL102


def finite_or_zero(x):
    total = x.sum()
    if math.isnan(total):  # BREAK BL102
        return torch.zeros_like(x)
    return x


def log_steps(x):
    steps = math.floor(math.log2(x.shape[-1]))
    return x * steps


compiled_attention = torch.compile(ScaledAttention(4))
compiled_normalised = torch.compile(normalised)
compiled_finite_or_zero = torch.compile(finite_or_zero)
compiled_log_steps = torch.compile(log_steps)


def probe_math_of_a_size():
    return ScaledAttention(4), (torch.randn(2, 3, 4), torch.randn(2, 3, 4))


def probe_math_sqrt_of_a_tensor():
    return normalised, (torch.randn(5),)


def probe_math_isnan_of_a_tensor():
    return finite_or_zero, (torch.randn(5),)


def probe_math_of_a_shape():
    return log_steps, (torch.randn(2, 8),)
