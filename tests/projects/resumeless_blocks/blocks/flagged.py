import warnings
from threading import Lock

import torch
from torch import nn


class Flagged(nn.Module):
    def __init__(self, quiet: bool) -> None:
        super().__init__()
        self.quiet = quiet

    def forward(self, x: torch.Tensor, order: list[int]):
        parts = [x, x + 1]
        if self.quiet:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = x * 2
            picked = [parts[i] for i in sorted(order)]
            x = picked[0] * x.sum().item()
        return x


def shared(x: torch.Tensor, exclusive: bool):
    lock = Lock()
    if exclusive:
        with lock:
            x = x + 1
        with lock:
            x = x * 2
    return x
