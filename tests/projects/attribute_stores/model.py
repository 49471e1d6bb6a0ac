import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Attn(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x, flag=False):
        if flag:
            logger.warning_once("no")
        return x


class Sdpa(Attn):
    pass


CLASSES = {"eager": Attn, "sdpa": Sdpa}


class Layer(nn.Module):
    def __init__(self, impl, n):
        super().__init__()
        self.attn = Attn(n)  # stored, not called: nothing of it runs here

    def forward(self, x):
        return self.attn(x)


class Encoder(nn.Module):
    def __init__(self, impl):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(3):
            layer = Layer(impl, i)
            self.layers.append(layer)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
