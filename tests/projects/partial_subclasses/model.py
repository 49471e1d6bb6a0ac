"""Mechanism 4: making an instance of a project subclass of `functools.partial` (in a helper
module of a folder that is no package, `ops/`, and a subclass of that subclass in another):
Dynamo 2.13 traces `functools.partial` itself, and breaks the graph at the subclass's call
("Unsupported function call"); calling the instance made is traced."""

import torch
from torch import nn

from ops.binding import bound, scaled
from ops.layers import both


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x + 1
        doubled = bound(scaled, factor=2.0)
        return both(doubled(h))
