"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from net import Net  # noqa: E402


def probe_net():
    return Net(), (torch.randn(2, 4), torch.tensor([2, 1]), torch.rand(4))
