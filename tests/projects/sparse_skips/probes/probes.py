"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Spread  # noqa: E402


def probe_spread():
    adjacency = torch.tensor([[0.0, 1.0], [1.0, 0.0]]).to_sparse()
    return Spread(), (torch.randn(2, 3), adjacency)
