import torch


def noisy(h, generator):
    return h + torch.randn(h.shape, generator=generator)
