from threading import Lock


def locked_double(h):
    lock = Lock()
    with lock:
        h = h * 2
    return h
