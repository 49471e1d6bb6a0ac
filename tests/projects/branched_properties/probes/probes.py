"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Interleaved, Stacked  # noqa: E402


def probe_interleaved():
    return Interleaved(), (torch.randn(4),)


def probe_stacked():
    return Stacked(), (torch.randn(4),)
