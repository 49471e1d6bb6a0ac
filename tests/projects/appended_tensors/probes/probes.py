"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Forecaster  # noqa: E402


def probe_forecaster():
    return Forecaster(), (torch.randn(2, 5, 4), torch.randn(2, 5))
