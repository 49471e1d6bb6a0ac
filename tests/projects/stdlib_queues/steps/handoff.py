from queue import LifoQueue


def drained(h):
    handed = LifoQueue()
    h = h * 3
    if handed.empty():
        h = h - 1
    return h
