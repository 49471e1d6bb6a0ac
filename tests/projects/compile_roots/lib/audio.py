import torch


def mel(x):
    print("mel")  # compiled only by a probe, through a builder beside it
    return torch.log1p(x.abs())


def never(x):
    print("never compiled")
    return x


def spectrum(x, bins):
    print("spectrum")  # compiled only through a probe's lambda
    return x[..., :bins]


def window(x, size=1):
    print("window")  # compiled only through a probe's functools.partial
    return x * size
