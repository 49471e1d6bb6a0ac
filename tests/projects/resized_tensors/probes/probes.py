import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Quantized  # noqa: E402


def probe_quantized():
    return Quantized(), (torch.randn(4, 3),)
