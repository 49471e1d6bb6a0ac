"""A data object passed to `forward`, annotated with its class, whose constructor takes
tensors: its methods run in the compiled code."""

from torch import nn

from batch.jagged import Jagged


class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 2)

    def forward(self, features: Jagged):
        return self.proj(features.first()).sum()
