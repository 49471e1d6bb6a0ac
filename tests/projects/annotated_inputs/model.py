"""A compiled module's unannotated input handed to a helper that annotates it as a tensor."""

from torch import nn

from layers.masks import padded


class Encoder(nn.Module):
    def forward(self, x, sizes):
        return padded(x, sizes).sum(-1)
