"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Recognizer  # noqa: E402


def probe_recognizer():
    targets = torch.tensor([[1, 2], [3, 1]])
    return Recognizer(), (torch.randn(2, 6, 3), torch.tensor([6, 5]), targets, torch.tensor([2, 2]))
