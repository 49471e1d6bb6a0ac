import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from decoding.steps import budget_left, padded, kept  # noqa: E402


def probe_padded():
    return padded, (torch.zeros(1, 2), 3)


def probe_kept():
    return kept, (torch.randn(5, 2), torch.randn(5), 3)


def probe_budget_left():
    return budget_left, (torch.randn(4), torch.tensor([1, 2]))
