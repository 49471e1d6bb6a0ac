"""Mechanism 4: a generator function the compiled code iterates (a helper module of a folder
that is no package, `streams/`). Dynamo 2.13 runs it inlined in the iterating frame: at the
first break in its body it gives up on that frame, and the generator runs eagerly from there,
so a later break in it is none (info)."""

import torch
from torch import nn

from streams.chunks import stamped


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x + 1
        for part in stamped(h):
            h = h + part
        return h * 2
