"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Pool  # noqa: E402


def probe_pool():
    return Pool(), (torch.randn(6, 4), torch.tensor([0, 2, 5]))
