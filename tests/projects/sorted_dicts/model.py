"""Mechanism 3: `sorted(d.items())` of a dict whose values are tensors (made in the function,
or passed to a helper in another module of a folder that is no package, `parts/`): Dynamo
2.13 cannot sort the (name, tensor) pairs ("sort with non-constant keys"); a dict of numbers,
and the pairs sorted by their names, compile."""

import torch
from torch import nn

from parts.merge import merged

SCALES = {"b": 2, "a": 3}


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        parts = {"b": x + 1, "a": x * 2}
        h = x
        for _, part in sorted(parts.items()):
            h = h + part
        for _, scale in sorted(SCALES.items()):
            h = h * scale
        for _, part in sorted(parts.items(), key=lambda item: item[0]):
            h = h - part
        return merged(h, parts)
