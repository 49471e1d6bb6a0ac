def moments(x):
    return x.mean(), x.std()


def spread(x):
    return x.max() - x.min()


def doubled(x):
    return x * 2
