"""Mechanism 4: generator functions the compiled code iterates (in a helper module of a
folder that is no package, `streams/`). Dynamo 2.13 runs each inlined in the iterating frame:
at the first break in its body, its own or a call's that breaks inside (`clocked()`), it gives
up on that frame, and the generator runs eagerly from there, so a later break in it is none
(info)."""

import torch
from torch import nn

from streams.chunks import stamped, timed


def tally(h):
    for part in timed(h):
        h = h - part
    return h


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x + 1
        for part in stamped(h):
            h = h + part
        return tally(h * 2)
