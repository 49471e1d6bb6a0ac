"""`any()`/`all()` over tensors and over Python values, and a compiled module's inputs used
as a tensor (`lengths[:, None]`) and as a number (`width`)."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Guarded, Masked  # noqa: E402
from nets.pooling import Crop, LengthPool  # noqa: E402


def probe_guarded():
    return Guarded(), (torch.randn(2, 4),)


def probe_masked():
    return Masked(), (torch.randn(3, 4),)


def probe_length_pool():
    return LengthPool(), (torch.randn(2, 5, 4), torch.tensor([3, 5]))


def probe_crop():
    return Crop(), (torch.randn(2, 5), 3)
