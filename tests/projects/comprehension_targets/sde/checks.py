def is_increasing(ts):
    return all(t0 < t1 for t0, t1 in zip(ts[:-1], ts[1:]))


def spans(ts):
    return [float(t1 - t0) for t0, t1 in zip(ts[:-1], ts[1:])]


def sizes(shape):
    return [n * 2 for n in shape]
