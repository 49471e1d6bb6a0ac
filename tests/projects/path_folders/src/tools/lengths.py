import torch


def count(x):
    return int(torch.count_nonzero(x))
