import torch


def fused(x, n_channels):
    n = n_channels[0]
    return x[:n] * 2


def lengths_of(mask):
    return mask.sum()


def stats(h):
    return h.mean(), h.shape[0]


def clipped(h):
    limit = h.abs().amax()
    h = h.clamp(max=limit)
    limit = h.shape[0] // 2  # a number from here on: the tensor above reaches no later use
    return head(h, limit)


def head(h, count):
    if count > 1:
        return h[:count]
    return h


def narrowed(x, ends: tuple[torch.Tensor, ...]):
    for end in ends:  # each element of a tuple of tensors is one
        x = x[:end]
    return x
