import os
import sys

import torch

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "clip")
)
from model import CLIP


def _clip(vision_layers, vision_width):
    return CLIP(
        embed_dim=16,
        image_resolution=32,
        vision_layers=vision_layers,
        vision_width=vision_width,
        vision_patch_size=8,
        context_length=8,
        vocab_size=50,
        transformer_width=32,
        transformer_heads=4,
        transformer_layers=2,
    )


def _inputs():
    text = torch.randint(1, 49, (2, 8))
    text[:, -1] = 49
    return torch.randn(2, 3, 32, 32), text


def probe_vit():
    return _clip(2, 64), _inputs()


def probe_resnet():
    return _clip((1, 1, 1, 1), 32), _inputs()


def probe_encode_text():
    return _clip(2, 64).encode_text, (_inputs()[1],)
