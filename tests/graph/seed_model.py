"""The module of the "Edit" drafts (shared seeds 000 and 001): `value` is an intermediate
that no module boundary exposes, and a printing forward hook splits the graph."""

import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(1, 1)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        x = self.layer1(x)
        value = x[:, 0]
        x = x * value
        x = self.dropout(x)
        x = x.split(1, dim=-1)
        return x


def show(module, args, output):
    print("layer1 gave", output.shape)


class Counting(nn.Module):
    """Each call scales by how often it was called: compiled and eager runs disagree."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        scaled = x * self.calls
        return scaled + 1
