import torch


def matched(x: torch.Tensor, reference: torch.Tensor, strict: bool = True):
    channels = reference[-1]
    if strict and channels:  # every caller passes `strict=False`: `channels` is never read
        x = x[..., :1]
    return checked(x, channels, strict)


def checked(x, channels, strict):
    if strict:  # `strict` passed on: false still
        print("checking", channels)
    return x


def scaled(x, reference, exact=False):
    if not exact:  # every caller passes `exact=True`
        return x * float(reference[0])
    if exact and reference.sum() > 0:  # read: a tensor's value
        return x * 2
    return x


def gated(x, reference, on):
    if on and reference[0]:  # one caller passes True, one False: `reference[0]` may be read
        return x + 1
    return x


def picked(x, reference, full=False):
    if x.shape[0] == 0:
        if full:  # every caller passes `full=True`, but this `if` runs only for empty inputs
            return x
        return x[:1]
    return x[:, reference > 0]  # a boolean mask: read
