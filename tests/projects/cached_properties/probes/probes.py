import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Density, ShiftedDensity  # noqa: E402


def _inputs():
    return torch.zeros(3), torch.ones(3), torch.randn(3)


def probe_density():
    return Density(), _inputs()


def probe_shifted():
    return ShiftedDensity(), _inputs()
