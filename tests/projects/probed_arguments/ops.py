def shift(x, offset):
    if offset > 0:  # a tensor from one probe, a number from the other
        return x + offset
    return x
