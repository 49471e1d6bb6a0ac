"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import PairLoss  # noqa: E402


def probe_pair_loss():
    anchors = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    positives = torch.tensor([1.0, 1.0, 3.0, 2.0, 5.0, 0.0])
    return PairLoss(), (anchors, positives, torch.tensor([1.0, 2.0, 3.0]))
