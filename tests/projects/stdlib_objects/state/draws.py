import random

RNG = random.Random(1234)


def jitter(h):
    h = h * RNG.random()  # a tensor operand: traced
    if RNG.uniform(0, 1) > 2.0:
        h = h + 1
    return h
