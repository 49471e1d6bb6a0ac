import functools


def within_context(fn):
    @functools.wraps(fn)
    def wrapper(self, *args):
        with self.context:
            return fn(self, *args)

    return wrapper
