"""Random draws with a `torch.Generator` break; the same draws from the global RNG do not."""

import torch
from torch import nn


def noisy(x, generator=None):
    y = x * 2
    return y + torch.randn(y.shape, generator=generator)  # BREAK BL508


def seeded_globally(x, generator=None):
    return x + torch.randn(x.shape, generator=None)


class RandomMask(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = torch.Generator()

    def forward(self, x):
        keep = torch.rand(x.shape, generator=self.generator) > 0.5  # BREAK BL508
        return x * keep


compiled_noisy = torch.compile(noisy)
compiled_seeded_globally = torch.compile(seeded_globally)


def probe_generator_argument():
    return noisy, (torch.randn(4, 3), torch.Generator().manual_seed(0))


def probe_no_generator():
    return seeded_globally, (torch.randn(4, 3),)


def probe_generator_on_self():
    return RandomMask(), (torch.randn(4, 3),)
