import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from model import Mamba, ModelArgs


def probe_mamba():
    return Mamba(ModelArgs(d_model=16, n_layer=2, vocab_size=50)), (torch.randint(0, 50, (2, 8)),)
