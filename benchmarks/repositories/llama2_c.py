import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from model import ModelArgs, Transformer


def _model():
    args = ModelArgs(
        dim=32,
        n_layers=2,
        n_heads=4,
        n_kv_heads=2,
        vocab_size=50,
        multiple_of=8,
        max_seq_len=16,
        dropout=0.0,
    )
    return Transformer(args)


def probe_train():
    return _model(), (torch.randint(0, 50, (2, 8)), torch.randint(0, 50, (2, 8)))


def probe_infer():
    return _model().eval(), (torch.randint(0, 50, (2, 8)),)


def probe_generate():
    model = _model().eval()
    return model.generate, (torch.randint(0, 50, (1, 4)), 3), {"top_k": 5}
