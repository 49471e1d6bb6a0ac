import torch
import torch.nn.functional as F


def guarded(x: torch.Tensor, order: list):
    try:
        scale = int(x.sum())
    except RuntimeError:
        scale = 1
    return [F.relu(x) * i for i in sorted(order)], scale
