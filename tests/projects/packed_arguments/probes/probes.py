"""Tensors packed into `**kwargs` and `*args` and read from them by key or index."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Block  # noqa: E402


def probe_block():
    return Block(), (torch.randn(2, 3), torch.rand(2, 3))
