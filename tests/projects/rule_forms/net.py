"""Mechanism 4: forms that break the graph, reached through a folder that is no package
(`parts/`), an aliased module and callables held on attributes."""

import torch
from torch import nn

from parts import draws as rnd
from parts.bounds import circular_ends, first_rows, suppressed
from parts.heads import by_name, reordered
from parts.placement import bucket_of, zeros_on_cpu
from parts.settings import Settings


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = torch.Generator().manual_seed(0)
        self.noise = rnd.noisy
        self.suppress = suppressed

    def forward(self, x: torch.Tensor, counts: torch.Tensor, prior: torch.Tensor):
        settings = Settings(scale=2.0)
        h = first_rows(x, counts) * settings.scale
        h = self.noise(h, self.generator)
        prior = self.suppress(prior, prior > 0.5)
        bias = zeros_on_cpu(h.shape)
        heads = by_name(h, ["q", "k"])
        first, rows = reordered(h, [1, 0])
        ends = circular_ends(x, ["linear", "circular", "linear", "circular"])
        return h + bias, prior, bucket_of(h), heads, ends, first, rows
