"""A size that an `if` computes from a tensor where the caller passes no size (`None`), a
Python int otherwise."""

import torch
from torch import nn

from audio import commons


class Decoder(nn.Module):
    def forward(self, x, lengths):
        x_mask = commons.sequence_mask(lengths, x.size(1)).to(x.dtype)
        durations = torch.ceil(x * x_mask).sum(1).long()
        y_mask = commons.sequence_mask(durations, None)
        return x_mask.sum() + y_mask.sum()
