"""Tensor comparisons answered with a Python bool: the call breaks, a branch on its answer
does not; an elementwise comparison kept as a tensor traces."""

import torch
from torch import nn


class Distance(nn.Module):
    def forward(self, x1: torch.Tensor, x2: torch.Tensor):
        same = torch.equal(x1, x2)  # BREAK BL105
        d = torch.cdist(x1, x2)
        if same:
            d = d * 0.5
        return d


def converged(x: torch.Tensor, y: torch.Tensor):
    step = y - x
    if x.allclose(y, atol=1e-3):  # BREAK BL105
        return x
    return x + step


def masked(x: torch.Tensor, y: torch.Tensor):
    return torch.where((x == y).all(), x, y)


compiled_converged = torch.compile(converged)
compiled_masked = torch.compile(masked)


def probe_equal_then_branch():
    return Distance(), (torch.randn(4, 3), torch.randn(4, 3))


def probe_allclose_method():
    return converged, (torch.randn(4), torch.randn(4))


def probe_comparison_kept_a_tensor():
    return masked, (torch.randn(4), torch.randn(4))
