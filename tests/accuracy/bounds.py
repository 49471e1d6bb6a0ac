"""Slice bounds in multi-dimensional indexes and in `slice(...)` objects: a tensor (or an
element of one) breaks, a Python number does not."""

import torch
from torch import nn


def first_channels(x, counts: torch.Tensor):
    n = counts[0]
    return x[:, :n] * 2  # BREAK BL304


def per_row(x, counts: torch.Tensor):
    rows = [x[i, : counts[i]].sum() for i in range(2)]  # BREAK BL304
    return torch.stack(rows)


def filled(x, counts: torch.Tensor):
    out = x * 0
    n = counts[1]
    out[0, :n] = 1.0  # BREAK BL304
    return out + 1


def segment_sums(src, indptr: torch.Tensor):
    out = src.new_zeros(indptr.shape[0] - 1, src.shape[1])
    for i in range(indptr.shape[0] - 1):
        rows = slice(indptr[i], indptr[i + 1])  # SKIP BL304 BL202
        out[i] = src[rows].sum(0)
    return out


class Window(nn.Module):
    def forward(self, x):
        width = x.shape[-1] // 2
        start = int(x.shape[0] > 1)
        columns = slice(start, width + start)
        return x[:, start : width + start] + x[..., ::2][:, :width] + x[:, columns]


compiled_first_channels = torch.compile(first_channels)
compiled_per_row = torch.compile(per_row)
compiled_filled = torch.compile(filled)
compiled_segment_sums = torch.compile(segment_sums)


def probe_element_as_bound():
    return first_channels, (torch.randn(4, 8), torch.tensor([3, 5]))


def probe_element_as_bound_in_a_comprehension():
    return per_row, (torch.randn(4, 8), torch.tensor([3, 5]))


def probe_element_as_bound_of_a_write():
    return filled, (torch.randn(4, 8), torch.tensor([3, 5]))


def probe_elements_as_bounds_of_a_slice_object():
    return segment_sums, (torch.randn(6, 3), torch.tensor([0, 2, 6]))


def probe_python_bounds():
    return Window(), (torch.randn(4, 8),)
