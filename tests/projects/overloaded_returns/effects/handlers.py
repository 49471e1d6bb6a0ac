import functools
from typing import Callable, Optional, Union, overload

import torch

from effects.messengers import RecordedCall, Recorder, Sampler


def make_handler(recorder_class):
    def decorator(func):
        @functools.wraps(func)
        def handler(fn=None, *args, **kwargs):
            recorder = recorder_class(*args, **kwargs)
            return recorder(fn) if fn is not None else recorder

        return handler

    return decorator


@overload
def record(fn: None = ..., scale: float = 1.0) -> Recorder: ...


@overload
def record(fn: Callable, scale: float = 1.0) -> RecordedCall[torch.Tensor]: ...


@make_handler(Recorder)
def record(fn=None, scale=1.0) -> Union[Recorder, RecordedCall]:
    """A recorder, or `fn` called under one."""


_DEFAULTS = {3: Sampler(3)}


def sampler(count: int) -> Optional[Sampler]:
    return _DEFAULTS.get(count)
