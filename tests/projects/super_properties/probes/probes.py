"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import FoldedScore, ShiftedScore, ShiftedSpread  # noqa: E402


def probe_shifted_score():
    return ShiftedScore(), (torch.randn(4),)


def probe_folded_score():
    return FoldedScore(), (torch.randn(4),)


def probe_shifted_spread():
    return ShiftedSpread(), (torch.randn(4),)
