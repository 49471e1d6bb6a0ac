import torch


def mel(x):
    print("mel")  # compiled only by a probe, through a builder beside it
    return torch.log1p(x.abs())


def never(x):
    print("never compiled")
    return x
