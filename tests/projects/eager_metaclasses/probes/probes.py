"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Clean, Constant, Looped, Noisy  # noqa: E402


def probe_noisy():
    return Noisy(), (torch.randn(4),)


def probe_clean():
    return Clean(), (torch.randn(4),)


def probe_looped():
    return Looped(), (torch.randn(4),)


def probe_constant():
    return Constant(), (torch.randn(4),)
