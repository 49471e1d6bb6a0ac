"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Drift  # noqa: E402


def probe_drift():
    return Drift(), (torch.randn(2, 4), torch.tensor([0.0, 0.5]))
