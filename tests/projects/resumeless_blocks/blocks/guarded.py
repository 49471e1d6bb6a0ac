import warnings
from contextlib import suppress as ignoring

import torch


def quiet(x, order):
    parts = [x, x * 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = x + 1
    picked = [parts[i] for i in sorted(order)]
    return picked[0] * x


def counted(x: torch.Tensor):
    with ignoring(ValueError):
        n = x.sum().item()
    return x * n


def resumed(x: torch.Tensor):
    with torch.no_grad():
        n = x.sum().item()
    with warnings.catch_warnings():
        y = x * 2
    return y * x.amax().item() * n
