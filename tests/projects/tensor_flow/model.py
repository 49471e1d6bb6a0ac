"""Mechanism 2: tensor-ness that flows through calls, returns, attributes and containers."""

import torch
from torch import nn

from ops.dense import picked
from ops.edges import kept_edges, typed_edges
from ops.fused import clipped, fused, lengths_of, narrowed, stats
from ops.gate import Gate
from ops.steps import shifted, whole
from ops.types import Edges


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("threshold", torch.tensor(0.5))
        self.steps = 4
        self.gate = Gate(torch.ones(()))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, edges: Edges):
        n_channels = torch.IntTensor([2])
        h = fused(x, n_channels)
        n = lengths_of(mask)
        padded = torch.zeros(n)
        mean, batch = stats(h)
        for _ in range(batch):
            h = h * 2
        if mean > 0:
            h = h - 1
        if self.threshold > 0.1:
            h = h + 1
        sizes = {"rows": n, "cols": self.steps}
        grid = torch.ones(sizes["cols"])
        bounds = [n, n + 1]
        empty = torch.empty(bounds[1])
        h = self.gate(clipped(h))
        h = shifted(h, 1)
        h = shifted(h, whole(h.sum()))  # `h` is what `shifted` returned: a tensor
        # `Edges` is an imported alias of a union: a tensor here, and the mask is the caller's.
        kept = kept_edges(edges, x[:, 0] > 0)
        typed = typed_edges(edges, x[:, 1].round())
        return picked(h), padded, grid, empty, kept, typed, narrowed(x, (n_channels[0],))
