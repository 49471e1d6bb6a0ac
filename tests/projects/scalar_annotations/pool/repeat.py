import torch


def repeat(src, length):
    if isinstance(src, torch.Tensor):
        return src.repeat(length)
    if isinstance(src, (int, float)):
        return [src] * length
    return src
