"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Distance  # noqa: E402


def probe_distance():
    return Distance(), (torch.rand(3, 4), torch.rand(3, 4))
