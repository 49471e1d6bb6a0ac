"""Mechanism 1: standard-library objects whose methods Dynamo cannot trace, known from where
they are made: an attribute `__init__` sets, a module-level instance here, one imported from a
folder that is no package (`state/`), and a lock made and entered in the compiled code; and a
`random.Random` whose draws Dynamo traces (a branch on one breaks)."""

import threading

import torch
from torch import nn

from state.capture import captured
from state.context import ACTIVE
from state.draws import jitter
from state.guard import locked_double
from state.holder import Switch

LOCK = threading.Lock()
SWITCH = Switch("switch")


class Model(nn.Module):
    @captured
    def forward(self, x: torch.Tensor):
        h = x + 1
        if SWITCH.get() is None:
            h = h * 2
        token = ACTIVE.set(1)
        h = h - 1
        ACTIVE.reset(token)
        LOCK.acquire()
        h = h * 3
        LOCK.release()
        return jitter(locked_double(h))
