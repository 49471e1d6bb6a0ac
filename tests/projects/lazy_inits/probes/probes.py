import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Codebook, Scaled, Smoothed  # noqa: E402


def probe_codebook():
    return Codebook(4, 8), (torch.randn(16, 8),)


def probe_scaled():
    return Scaled(), (torch.randn(3),)


def probe_smoothed():
    return Smoothed(), (torch.randn(4, 3),)
