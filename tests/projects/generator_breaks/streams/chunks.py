import time


def stamped(h):
    started = time.time()
    yield h * 2
    print("halfway", started)
    yield h * 3
