def shifted(x, amount):
    return x + amount


def whole(x):
    return int(x)
