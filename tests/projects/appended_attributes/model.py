"""Objects a constructor appends to a list on the instance (`self.filters.append(...)`):
the methods of each element that a loop over the list calls are traced."""

import torch
from torch import nn

from decoding.filters import Clamp, Shift


class Decoder(nn.Module):
    def __init__(self, clamp=True):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.filters = []
        self.filters.append(Shift(1.0))
        if clamp:
            self.filters.append(Clamp())

    def forward(self, x):
        logits = self.proj(x)
        for logit_filter in self.filters:
            logits = logit_filter.apply(logits)
        return torch.softmax(logits, -1)
