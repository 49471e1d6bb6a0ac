from lengths import count


def scaled(x):
    return x * count(x)
