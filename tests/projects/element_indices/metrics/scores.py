import torch


def floored(h, preds):
    total = (preds * 2).sum()
    total[total == 0] = 1.0
    return h / total
