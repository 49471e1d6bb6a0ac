"""The model the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from batch.jagged import Jagged  # noqa: E402
from model import Pool  # noqa: E402


def probe_pool():
    return Pool(), (Jagged(torch.randn(5, 4), torch.tensor([2, 3])),)
