def first_rows(x, counts):
    return x[0, : counts[0]]


def suppressed(prior, mask):
    prior[mask] *= 0.0
    return prior


def circular_ends(x, tails):
    circular = [t == "circular" for t in tails]
    linear = [not flag for flag in circular]
    x = x.clone()
    x[:, linear] = 0.0  # a write through a list of bools keeps the shape
    return x[:, circular]  # a read selects as a mask does
