import torch


def dense(x):
    keep = torch.zeros(x.shape[0], dtype=torch.bool)
    keep[0] = True
    return x * 2, keep.view(-1)


def picked(x):
    h, keep = dense(x)  # a mask: a boolean factory, then a view of it
    return h[keep]
