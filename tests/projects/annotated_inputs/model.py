"""A compiled module's unannotated input handed to helpers that annotate it as a tensor."""

from torch import nn

from layers.masks import narrowed, padded


class Encoder(nn.Module):
    def forward(self, x, sizes):
        return padded(x, sizes).sum(-1) + narrowed(x, sizes)
