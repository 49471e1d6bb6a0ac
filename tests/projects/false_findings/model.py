"""Mechanism 1: values read as tensors that are not, methods read as torch's that are the
project's own, and tensors passed only on the way TorchScript takes. The entry script sits
beside `blocks/`, a folder that is no package."""

import torch
from torch import nn

from blocks.attention import Attention
from blocks.casting import clipped, rounded, to_int
from blocks.scaling import scaled, shifted


class Modulation:
    @staticmethod
    def split(temb: torch.Tensor, parts: int):
        return temb.chunk(parts, dim=-1)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = Attention()

    def forward(self, x: torch.Tensor, temb: torch.Tensor):
        shift, scale = Modulation.split(temb, 2)
        h = self.attention(x * scale + shift, cache=None, gate=None)
        h = scaled(h, 2)
        h = shifted(h, temb.sum())
        # Tensors reach `to_int` only where TorchScript traces: Dynamo takes the other way.
        width = h.shape[-1]
        n = (
            to_int(torch.ceil(h.amax()) * int(h.amin()))
            if torch.jit.is_tracing()
            else to_int(width * 2)
        )
        if torch.jit.is_tracing():
            n = to_int(torch.ceil(h.amax()) * 3) + int(h.amin())
        return rounded(clipped(shifted(h, 1)), exact=False) * n
