"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Model  # noqa: E402


def probe_model():
    preds = torch.tensor([0.5, 0.2, 0.5, 0.9])
    return Model(), (preds, torch.tensor([1, 0, 1, 1]), torch.linspace(0.0, 1.0, 8))
