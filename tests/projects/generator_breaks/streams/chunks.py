import time


def stamped(h):
    started = time.time()
    yield h * 2
    print("halfway", started)
    yield h * 3


def clocked():
    return time.time()


def timed(h):
    started = clocked()
    yield h * 2
    print("took", started)
