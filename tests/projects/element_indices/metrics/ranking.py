import torch


def tied_gain(preds, target, table):
    _, inverse, counts = torch.unique(-preds, return_inverse=True, return_counts=True)
    groups = counts.cumsum(dim=0) - 1
    sums = torch.zeros_like(counts, dtype=torch.float32)
    sums[0] = table[groups[0]]
    sums[1:] = table[groups].diff()
    order = torch.randperm(4)
    first = table[order[-1]]
    return sums.sum() + first + table[inverse].sum()
