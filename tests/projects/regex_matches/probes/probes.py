"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Scaled  # noqa: E402


def probe_scaled():
    return Scaled("2.13.0"), (torch.randn(4),)
