import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import CheckedSolve, PlainSolve  # noqa: E402


def probe_checked():
    return CheckedSolve(), (torch.randn(3) * 4,)


def probe_plain():
    return PlainSolve(), (torch.randn(3),)
