import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from model import ActNorm, Block, Glow, InvConv2d

CHANNELS, SIZE = 3, 8


def _glow(**options):
    return Glow(CHANNELS, n_flow=2, n_block=2, **options)


def probe_glow_first_call():
    # ActNorm initialises its scale from the first batch it sees.
    return _glow().train(), (torch.rand(2, CHANNELS, SIZE, SIZE),)


def probe_glow_initialised():
    model = _glow().eval()
    model(torch.rand(2, CHANNELS, SIZE, SIZE))
    return model, (torch.rand(2, CHANNELS, SIZE, SIZE),)


def probe_glow_additive_plain_conv():
    model = _glow(affine=False, conv_lu=False).eval()
    model(torch.rand(2, CHANNELS, SIZE, SIZE))
    return model, (torch.rand(2, CHANNELS, SIZE, SIZE),)


def probe_glow_reverse():
    model = _glow().eval()
    _, _, z_outs = model(torch.rand(2, CHANNELS, SIZE, SIZE))
    return model.reverse, ([torch.randn_like(z) for z in z_outs],)


def probe_glow_reconstruct():
    model = _glow().eval()
    _, _, z_outs = model(torch.rand(2, CHANNELS, SIZE, SIZE))
    return model.reverse, (z_outs, True)


def probe_block():
    block = Block(CHANNELS, 2).eval()
    block(torch.rand(2, CHANNELS, SIZE, SIZE))
    return block, (torch.rand(2, CHANNELS, SIZE, SIZE),)


def probe_actnorm_reverse():
    layer = ActNorm(4)
    layer(torch.rand(2, 4, 4, 4))
    return layer.reverse, (torch.rand(2, 4, 4, 4),)


def probe_invconv_reverse():
    return InvConv2d(4).reverse, (torch.rand(2, 4, 4, 4),)
