import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Normalised, Offsets, Prepared, Scaled  # noqa: E402


def probe_prepared():
    return Prepared(), (torch.randn(3),)


def probe_normalised():
    return Normalised(), (torch.randn(3),)


def probe_scaled():
    return Scaled(), (torch.randn(3),)


def probe_offsets():
    return Offsets(), (torch.randn(3),)
