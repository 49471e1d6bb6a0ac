"""The model whose second break Dynamo 2.13 names on the wrong line."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Net  # noqa: E402


def probe_net():
    return Net(), ({"x": torch.linspace(-1.0, 1.0, 5)},)  # two positives: never empty
