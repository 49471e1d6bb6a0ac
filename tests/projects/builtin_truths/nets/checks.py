import torch


def has_nan(parts):
    return any(torch.isnan(t).any() for t in parts)


def all_set(mask):
    return all(mask)


def any_flag(flags):
    return any(flag for flag in flags)


def any_empty(x):
    return any(n == 0 for n in x.shape)
