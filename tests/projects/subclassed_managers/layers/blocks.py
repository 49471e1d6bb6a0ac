import torch
from utils import quiet
from utils.quiet import frozen, muted, recorded


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x):
        y = self.proj(x)
        with quiet.suppress_trace_warnings():
            y = y * 2
        return y + 1


def muted_scale(x):
    with muted():
        x = x * 3
    return x


def recorded_scale(x):
    with recorded():
        x = x * 3
    return x


def frozen_scale(x):
    with frozen():
        x = x * 3
    return x
