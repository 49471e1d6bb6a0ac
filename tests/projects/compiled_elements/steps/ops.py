import torch


def scale(x):
    return x * float(x.abs().max())


def shift(x):
    if x.sum() > 0:
        return x - 1
    return x + 1


def clip(x):
    print("clip")
    return x.clamp(-1, 1)


def centre(x):
    return x - x.mean().item()


def untouched(x):
    return x * int(x.numel() > 0 and x.max() > 0)
