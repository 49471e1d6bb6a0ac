"""The model and functions the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from layers.blocks import frozen_scale, muted_scale, recorded_scale  # noqa: E402
from model import Model  # noqa: E402


def probe_model():
    return Model(), (torch.randn(2, 4),)


def probe_muted():
    return muted_scale, (torch.randn(2, 4),)


def probe_recorded():
    return recorded_scale, (torch.randn(2, 4),)


def probe_frozen():
    return frozen_scale, (torch.randn(2, 4),)
