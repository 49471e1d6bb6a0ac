import torch


class Selection:
    def __init__(self, index):
        self.index = index


def dense(x):
    keep = torch.zeros(x.shape[0], dtype=torch.bool)
    keep[0] = True
    return x * 2, keep.view(-1)


def rows(values: torch.Tensor, index: torch.Tensor):
    return values[index >= 0]


def picked(x):
    h, keep = dense(x)  # a mask: a boolean factory, then a view of it
    selection = Selection(torch.arange(h.shape[0]) - 1)
    first = h[keep].sum()
    return rows(h, selection.index) + first  # an object's attribute: its annotation decides
