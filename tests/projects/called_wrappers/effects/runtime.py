import functools
from typing import TypedDict, overload


class Message(TypedDict, total=False):
    name: str
    value: object


@overload
def effectful(fn: None = ..., *, kind: str) -> functools.partial: ...


@overload
def effectful(fn: object, *, kind: str) -> object: ...


def effectful(fn=None, *, kind=""):
    if fn is None:
        return functools.partial(effectful, kind=kind)

    @functools.wraps(fn)
    def _fn(*args, name=None, **kwargs):
        msg = Message(name=name, value=None)
        msg["value"] = fn(*args, **kwargs)
        return msg["value"]

    return _fn


def logged(fn):
    def inner(*args):
        print("calling", fn.__name__)
        return fn(*args)

    return inner
