from blocks.noisy import noisy, via


def repeat(x, order):
    parts = [x, x * 2]
    for _ in range(2):
        x = noisy(x)
    picked = [parts[i] for i in sorted(order)]
    return picked[0] * x.sum().item()


def maybe_repeat(x):
    for _ in range(2):
        x = via(x)
    return x * x.sum().item()


def guarded(x):
    try:
        x = noisy(x)
    except ValueError:
        pass
    return x * x.sum().item()


def maybe_guarded(x, order):
    parts = [x, x * 2]
    try:
        x = via(x)
    except ValueError:
        pass
    picked = [parts[i] for i in sorted(order)]
    return picked[0] * x


def either(x, order, slow):
    parts = [x, x * 2]
    if slow:
        for _ in range(2):
            x = noisy(x)
    else:
        parts = [parts[i] for i in sorted(order)]
    return parts[0] * x
