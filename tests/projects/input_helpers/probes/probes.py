"""Helpers whose returns are computed from a compiled module's input with tensor methods."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Rescale, Standardize  # noqa: E402


def probe_standardize():
    return Standardize(), (torch.randn(4, 3),)


def probe_rescale():
    return Rescale(), (torch.randn(4, 3),)
