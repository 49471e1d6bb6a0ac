"""Calls named like a tensor's method whose receiver is no tensor: a backend object a
function returns, a module-level instance, a parameter annotated with a project class, `self`
of a class that defines the method, a staticmethod called on its class; and one on a tensor."""

import torch
from torch import nn

from ops.backends import Backend
from ops.packing import flat, halves, pack


class Modulation(nn.Module):
    @staticmethod
    def split(t, n):
        return t.chunk(n, dim=-1)

    def reshape(self, x, shape):
        return x.reshape(shape)

    def forward(self, x, temb):
        shift, scale = Modulation.split(temb, 2)
        h = self.reshape(x, (x.shape[0], -1))
        (packed,) = pack([h])
        first, second = halves(x, Backend())
        n = (first > 0).sum()
        return flat(packed) * scale.sum() + shift.sum() + first.sum() + second.view(n).sum()
