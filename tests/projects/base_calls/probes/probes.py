"""A torch layer's subclass whose `forward` tests what `super().forward(x)` returns, and a
module whose own `__call__` runs before its `forward`."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from layers.checked import CheckedLinear  # noqa: E402
from model import Net  # noqa: E402


def probe_net():
    return Net(), (torch.randn(2, 3),)


def probe_checked():
    return CheckedLinear(3, 3), (torch.randn(2, 3),)
