"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Policy  # noqa: E402


class Box:
    def __init__(self, low, high, shape):
        self.low = np.full(shape, low, dtype=np.float32)
        self.high = np.full(shape, high, dtype=np.float32)
        self.shape = shape


def probe_policy():
    # Bounds that are not an image's: the first `np.any` is true, and so is the branch.
    return Policy(Box(-1.0, 1.0, (1, 4, 4))), (torch.rand(2, 1, 4, 4),)
