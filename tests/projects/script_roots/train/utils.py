def scale(x, n):
    return x * n


def norm(x):
    return x / float(x.norm())
