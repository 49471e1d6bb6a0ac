def fused(x, n_channels):
    n = n_channels[0]
    return x[:n] * 2


def lengths_of(mask):
    return mask.sum()


def stats(h):
    return h.mean(), h.shape[0]
