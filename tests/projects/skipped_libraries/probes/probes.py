"""The sampler the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Denoiser, sample  # noqa: E402


def probe_sample():
    return sample, (Denoiser(), torch.randn(2, 4))
