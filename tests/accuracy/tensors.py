"""Telling tensors from Python values: annotations, helpers, iteration, branches, guards."""

from typing import Optional

import torch
from torch import nn

from guards import is_tracing


def positive_count(x) -> torch.Tensor:
    return (x > 0).sum()


def select(x, keep: torch.BoolTensor):
    return x[keep]  # BREAK BL302


class Annotated(nn.Module):
    def forward(
        self,
        x: torch.Tensor,
        mask: Optional[torch.Tensor] = None,
        output_scores: Optional[torch.Tensor] = False,
    ):
        if output_scores:
            x = x * 2
        if positive_count(x) > 0:  # BREAK BL201
            x = x - 1
        return select(x, x > 0)


class Paired(nn.Module):
    def forward(self, x, y):
        total = x.new_zeros(())
        for row, other in zip(x.unbind(), y.unbind()):
            if row.mean() > other:  # BREAK BL201 BL202
                total = total + row.sum()
        return total


class DropPath(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        skip = False
        if self.training and self.p > 0:
            skip = torch.rand(()) < self.p
        if skip:  # BREAK BL201
            return x
        return x * 2


class Guarded(nn.Module):
    def forward(self, x, mask):
        if not is_tracing(mask) and torch.all(mask == 1):
            return x
        return x * mask


def probe_annotations_and_helpers():
    return Annotated(), (torch.randn(4, 3),)


def probe_zip_over_tensors():
    return Paired(), (torch.randn(4, 3), torch.zeros(4))


def probe_tensor_on_one_path():
    return DropPath().train(), (torch.randn(4, 3),)


def probe_guard_written_by_the_user():
    return Guarded(), (torch.randn(4, 3), torch.ones(4, 3))


def prepare_mask(x, mask) -> tuple[bool, torch.Tensor]:
    if mask is None:
        return True, x
    return False, mask


class EarlyExit(nn.Module):
    def forward(self, x, mask=None):
        early_exit, mask = prepare_mask(x, mask)
        if early_exit:
            return x
        return x * mask


def probe_flag_returned_beside_a_tensor():
    return EarlyExit(), (torch.randn(4, 3),)
