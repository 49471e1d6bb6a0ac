"""Code Dynamo runs that is not a `forward` itself: wrappers, installed forwards, properties."""

import functools
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


def merge_defaults(func):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        if self.training:
            logger.warning("merging config defaults")  # BREAK BL402
        return func(self, *args, **kwargs)

    return wrapper


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    @merge_defaults
    def forward(self, x):
        return self.proj(x)


class Layer(nn.Module):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        forward = cls.forward

        def forward_with_log(self, *args, **kwargs):
            print("calling", type(self).__name__)  # BREAK BL401
            return forward(self, *args, **kwargs)

        cls.forward = forward_with_log


class Dense(Layer):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return self.proj(x)


def shared_forward(self, x):
    y = self.proj(x)
    return y * y.sum().item()  # BREAK BL101


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    forward = shared_forward


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(8))
        self._scale = 2.0

    @property
    def scale(self):
        print("reading the scale")  # BREAK BL401
        return self._scale

    @scale.setter
    def scale(self, value):
        self._scale = value

    def forward(self, x):
        return x * self.weight * self.scale


def probe_decorated_forward():
    return Block().train(), (torch.randn(2, 8),)


def probe_forward_installed_by_base_class():
    return Dense(), (torch.randn(2, 8),)


def probe_forward_assigned_in_class_body():
    return Shared(), (torch.randn(2, 8),)


def probe_property_getter_with_setter():
    return Scaled(), (torch.randn(2, 8),)
