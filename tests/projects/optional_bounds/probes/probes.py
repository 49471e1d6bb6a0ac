"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Decoder  # noqa: E402


def probe_decoder():
    return Decoder(), (torch.rand(2, 5) * 3, torch.tensor([5, 3]))
