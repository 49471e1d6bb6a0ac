import torch


def inside(values, bound=1.0):
    keep = (values >= -bound) & (values <= bound)
    out = torch.zeros_like(values)
    out[keep] = values[keep] * 2
    return out


def rounded(values):
    return values * int(values[0, 0])
