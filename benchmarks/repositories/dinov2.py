import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from dinov2.models.vision_transformer import DinoVisionTransformer


def _vit(**changes):
    kwargs = dict(
        img_size=28,
        patch_size=14,
        embed_dim=32,
        depth=2,
        num_heads=4,
        init_values=1e-5,
        num_register_tokens=2,
        block_chunks=0,
    )
    kwargs.update(changes)
    return DinoVisionTransformer(**kwargs).eval()


def probe_forward():
    return _vit(), (torch.randn(2, 3, 28, 28),)


def probe_other_size():
    return _vit(), (torch.randn(2, 3, 42, 42),)


def probe_masked_features():
    masks = torch.zeros(2, 4, dtype=torch.bool)
    masks[0, 1] = True
    return _vit().forward_features, (torch.randn(2, 3, 28, 28), masks)


def probe_intermediate():
    return (
        _vit(block_chunks=2).get_intermediate_layers,
        (torch.randn(2, 3, 28, 28), 2),
        {"reshape": True},
    )
