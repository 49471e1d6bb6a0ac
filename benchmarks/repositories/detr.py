import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from models.transformer import Transformer


def _args(batch=2, c=32, h=4, w=5, queries=6):
    mask = torch.zeros(batch, h, w, dtype=torch.bool)
    mask[1, :, 3:] = True
    return (torch.randn(batch, c, h, w), mask, torch.randn(queries, c), torch.randn(batch, c, h, w))


def _transformer(**changes):
    return Transformer(
        d_model=32,
        nhead=4,
        num_encoder_layers=2,
        num_decoder_layers=2,
        dim_feedforward=64,
        dropout=0.0,
        **changes,
    )


def probe_post_norm():
    return _transformer(return_intermediate_dec=True), _args()


def probe_pre_norm():
    return _transformer(normalize_before=True), _args()
