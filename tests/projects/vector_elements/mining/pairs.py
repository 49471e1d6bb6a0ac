import torch


def positive_gap(e, labels):
    dist = torch.cdist(e, e)
    anchors, positives = torch.where(labels[:, None] == labels[None])
    total = dist.sum() * 0
    for a, p in zip(anchors, positives):
        total = total + dist[a, p]
    return total


def first_rows(e, n):
    total = e.sum() * 0
    for i in torch.arange(n):
        total = total + e[i].sum()
    rows = [0, 1]
    for i in rows:
        total = total + e[i].sum()
    return total
