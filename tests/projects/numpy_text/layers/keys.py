import numpy as np


def by_depth(blocks, x):
    depth = np.log2(x.shape[-1])
    return blocks[f"{depth:.0f}"](x)


def by_size(blocks, x):
    size = np.prod(x.shape[:1]) + 1
    return blocks[str(size)](x)


def by_width(blocks, x):
    width = int(np.log2(x.shape[-1]))  # a Python int: its text is traced
    return blocks[f"{width}"](x)


def named(x):
    scale = np.sqrt(x.shape[0])
    tag = "scaled by " + repr(scale)
    return x * len(tag)


def labelled(x):
    count = np.prod(x.shape)
    label = "count=%d" % count
    return x * len(label)


def titled(x):
    count = np.prod(x.shape)
    return x * len("{} items".format(count))


def unrolled(x):
    draws = np.random.geometric(0.5, 4)
    steps = max(draws) + 1
    for k in range(1, steps + 1):
        x = x * k
    return x
