import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Critic  # noqa: E402


def probe_critic():
    return Critic(), (torch.randn(4, 3, 5), torch.tensor([1, 2, 2, 1]))
