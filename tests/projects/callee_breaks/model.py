import torch
from torch import nn

from blocks.gen import all_positive
from blocks.loops import either, guarded, maybe_guarded, maybe_repeat, repeat


class Model(nn.Module):
    def forward(self, x, order):
        h = repeat(x, order)
        h = maybe_repeat(h)
        h = guarded(h)
        h = h + maybe_guarded(x, order)
        h = h + either(x, order, x.shape[0] > 8)
        return all_positive(h, (h, h + 1))
