def first_rows(x, counts):
    return x[0, : counts[0]]


def suppressed(prior, mask):
    prior[mask] *= 0.0
    return prior
