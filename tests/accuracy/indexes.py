"""Integer indexes: a 0-dim tensor (a full reduction, an element of a 1-dim tensor) breaks; a
tensor of indices that keeps a dimension does not."""

import torch


def best_column(x):
    return x[:, x.sum(0).argmax()] * 2  # BREAK BL304


def picked(x, columns: torch.Tensor):
    return x[:, columns.max()] + 1  # BREAK BL304


def pairs(x):
    out = torch.zeros(2, 2)
    for pair in torch.cartesian_prod(torch.arange(2), torch.arange(2)):
        out[pair[0], pair[1]] = x[pair[0]].sum()  # SKIP BL304 BL202
    return out


def gathered(x, idx: torch.Tensor):
    return x[:, idx] + x[:, idx[0:1]]


compiled_best_column = torch.compile(best_column)
compiled_picked = torch.compile(picked)
compiled_pairs = torch.compile(pairs)
compiled_gathered = torch.compile(gathered)


def probe_reduction_as_index():
    return best_column, (torch.randn(3, 4),)


def probe_maximum_as_index():
    return picked, (torch.randn(3, 4), torch.tensor([1, 2]))


def probe_elements_of_rows_as_indexes():
    return pairs, (torch.randn(3, 4),)


def probe_tensors_of_indexes():
    return gathered, (torch.randn(3, 4), torch.tensor([1, 2]))
