import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from training.networks import Discriminator, Generator


def _g():
    return Generator(
        z_dim=16,
        c_dim=0,
        w_dim=16,
        img_resolution=16,
        img_channels=3,
        mapping_kwargs={"num_layers": 2},
        synthesis_kwargs={"channel_base": 256, "channel_max": 32},
    )


def probe_generator():
    return _g(), (torch.randn(2, 16), None)


def probe_generator_eval():
    return _g().eval(), (torch.randn(2, 16), None), {"truncation_psi": 0.7, "noise_mode": "const"}


def probe_discriminator():
    d = Discriminator(c_dim=0, img_resolution=16, img_channels=3, channel_base=256, channel_max=32)
    return d, (torch.randn(2, 3, 16, 16), None)
