"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Modulation  # noqa: E402


def probe_modulation():
    return Modulation(), (torch.ones(2, 2), torch.randn(2, 4))
