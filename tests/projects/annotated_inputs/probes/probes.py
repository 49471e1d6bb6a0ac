"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Encoder  # noqa: E402


def probe_encoder():
    return Encoder(), (torch.randn(2, 6), torch.tensor([4, 2]))
