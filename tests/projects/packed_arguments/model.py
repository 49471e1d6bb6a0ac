import torch
from torch import nn

from layers.packed import gated, labelled, passed_on, scaled


class Block(nn.Module):
    def forward(self, x, w):
        h = gated(x, gate=w)
        h = scaled(h, x)
        h = labelled(h, name="block")
        return passed_on(h, gate=torch.sigmoid(w))
