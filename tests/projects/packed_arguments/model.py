import torch
from torch import nn

from layers.packed import gated, labelled, passed_on, scaled


class Block(nn.Module):
    def forward(self, x, w):
        h = gated(x, gate=torch.sigmoid(w))
        h = scaled(torch.relu(h), torch.tanh(x))
        h = labelled(h, name="block")
        return passed_on(h, bound=torch.sigmoid(w).max() * 4)
