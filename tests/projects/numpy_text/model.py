"""Text made of numpy results: keys of a module dict, names of layers."""

from torch import nn

from layers.keys import by_depth, by_size, by_width, labelled, named, titled, unrolled


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleDict({str(n): nn.Linear(8, 8) for n in (1, 2, 3)})

    def forward(self, x):
        h = by_depth(self.blocks, x) + by_size(self.blocks, x) + by_width(self.blocks, x)
        return h + named(x) + labelled(x) + titled(x) + unrolled(x)
