import functools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pixelsnail import PixelSNAIL
from sample import sample_model
from vqvae import VQVAE, Quantize


def _vqvae():
    return VQVAE(channel=16, n_res_block=1, n_res_channel=8, embed_dim=8, n_embed=32)


def _images():
    return torch.randn(2, 3, 32, 32)


def _top_prior():
    # train_pixelsnail.py's top prior (attention on) at tiny sizes: 4x4 codes, 32 codes
    return PixelSNAIL([4, 4], 32, 16, 5, 2, 1, 8, dropout=0.1, n_out_res_block=1)


def _bottom_prior():
    # its bottom prior: no attention, conditioned on the top codes
    return PixelSNAIL(
        [8, 8], 32, 16, 5, 2, 1, 8, attention=False, dropout=0.1, n_cond_res_block=1,
        cond_res_channel=8,
    )  # fmt: skip


def probe_vqvae_train():
    return _vqvae().train(), (_images(),)


def probe_vqvae_eval():
    return _vqvae().eval(), (_images(),)


def probe_vqvae_encode():
    return _vqvae().eval().encode, (_images(),)


def probe_vqvae_decode_code():
    return _vqvae().eval().decode_code, (
        torch.randint(0, 32, (2, 4, 4)),
        torch.randint(0, 32, (2, 8, 8)),
    )


def probe_quantize_train():
    return Quantize(8, 32).train(), (torch.randn(2, 4, 4, 8),)


def probe_top_prior_train():
    return _top_prior().train(), (torch.randint(0, 32, (2, 4, 4)),)


def probe_bottom_prior_conditioned():
    return _bottom_prior().eval(), (
        torch.randint(0, 32, (2, 8, 8)),
        torch.randint(0, 32, (2, 4, 4)),
    )


def probe_bottom_prior_cached_condition():
    condition = torch.randint(0, 32, (2, 4, 4))
    _, cache = _bottom_prior().eval()(torch.randint(0, 32, (2, 1, 8)), condition=condition)
    return functools.partial(_bottom_prior().eval(), condition=condition, cache=cache), (
        torch.randint(0, 32, (2, 2, 8)),
    )


def probe_sample_top_codes():
    return sample_model, (_top_prior().eval(), "cpu", 2, [2, 4], 1.0)
