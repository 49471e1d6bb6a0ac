import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from training.loss import EDMLoss
from training.networks import EDMPrecond, VPPrecond

UNET = dict(model_channels=16, channel_mult=[1, 2], num_blocks=1, attn_resolutions=[4], dropout=0.0)
SONG = dict(model_type="SongUNet", **UNET)


def probe_edm_song():
    net = EDMPrecond(img_resolution=8, img_channels=3, **SONG)
    return net, (torch.randn(2, 3, 8, 8), torch.tensor([0.5, 2.0]))


def probe_vp_dhariwal():
    net = VPPrecond(
        img_resolution=8, img_channels=3, label_dim=4, model_type="DhariwalUNet", **UNET
    )
    labels = torch.nn.functional.one_hot(torch.tensor([1, 3]), 4).float()
    return net, (torch.randn(2, 3, 8, 8), torch.tensor([0.5, 2.0]), labels)


def probe_edm_loss():
    net = EDMPrecond(img_resolution=8, img_channels=3, **SONG)
    return EDMLoss(), (net, torch.randn(2, 3, 8, 8))
