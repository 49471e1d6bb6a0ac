import functools
import os
import sys
import types

import torch

# k_diffusion/__init__ imports every submodule; these modules' imports serve data augmentation,
# FID/CLIP evaluation, config merging, image file conversion and a DCT loss weighting, none of
# which the denoisers or samplers below call.
for _name in (
    "dctorch", "jsonmerge", "skimage", "cleanfid", "cleanfid.inception_torchscript", "clip",
    "torchvision", "torchvision.transforms", "torchvision.transforms.functional",
):  # fmt: skip
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["dctorch"].functional = types.ModuleType("dctorch.functional")
sys.modules["skimage"].transform = types.ModuleType("skimage.transform")
sys.modules["jsonmerge"].merge = dict
sys.modules["cleanfid.inception_torchscript"].InceptionV3W = object
sys.modules["torchvision"].transforms = sys.modules["torchvision.transforms"]
sys.modules["torchvision.transforms"].functional = sys.modules["torchvision.transforms.functional"]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from k_diffusion import layers, sampling  # noqa: E402
from k_diffusion.models import (  # noqa: E402
    ImageDenoiserModelV1,
    ImageTransformerDenoiserModelV2,
)
from k_diffusion.models.image_transformer_v2 import (  # noqa: E402
    GlobalAttentionSpec,
    LevelSpec,
    MappingSpec,
    NoAttentionSpec,
    ShiftedWindowAttentionSpec,
)


def _unet_v1(**kwargs):
    return ImageDenoiserModelV1(
        c_in=3, feats_in=32, depths=[1, 1], channels=[32, 32], self_attn_depths=[False, True],
        **kwargs,
    )  # fmt: skip


def _hourglass(attention):
    levels = [
        LevelSpec(depth=1, width=32, d_ff=64, self_attn=attention, dropout=0.0),
        LevelSpec(
            depth=1, width=32, d_ff=64, self_attn=GlobalAttentionSpec(d_head=16), dropout=0.0
        ),
    ]
    mapping = MappingSpec(depth=1, width=32, d_ff=64, dropout=0.0)
    return ImageTransformerDenoiserModelV2(
        levels, mapping, in_channels=3, out_channels=3, patch_size=[2, 2]
    )


def _images():
    return torch.randn(2, 3, 16, 16), torch.tensor([0.5, 2.0])


def probe_unet_v1_eval():
    return _unet_v1().eval(), _images()


def probe_unet_v1_patch_train():
    return _unet_v1(patch_size=2, dropout_rate=0.1).train(), _images()


def probe_denoiser_v1():
    return layers.Denoiser(_unet_v1(), sigma_data=0.5).eval(), _images()


def probe_denoiser_loss_soft_min_snr():
    denoiser = layers.Denoiser(_unet_v1(), sigma_data=0.5, weighting="soft-min-snr")
    images, sigma = _images()
    return denoiser.loss, (images, torch.randn_like(images), sigma)


def probe_hourglass_global():
    return _hourglass(GlobalAttentionSpec(d_head=16)).eval(), _images()


def probe_hourglass_shifted_window():
    return _hourglass(ShiftedWindowAttentionSpec(d_head=16, window_size=4)).eval(), _images()


def probe_hourglass_no_attention_train():
    return _hourglass(NoAttentionSpec()).train(), _images()


def _sampler(sample):
    model = layers.Denoiser(_unet_v1(), sigma_data=0.5).eval()
    sigmas = sampling.get_sigmas_karras(4, 0.02, 10.0)
    return functools.partial(sample, model, sigmas=sigmas, disable=True), (
        torch.randn(1, 3, 16, 16),
    )


def probe_sample_euler():
    return _sampler(sampling.sample_euler)


def probe_sample_euler_ancestral():
    return _sampler(sampling.sample_euler_ancestral)


def probe_sample_heun():
    return _sampler(sampling.sample_heun)


def probe_sample_lms():
    return _sampler(sampling.sample_lms)


def probe_sample_dpmpp_2m():
    return _sampler(sampling.sample_dpmpp_2m)


def probe_sample_dpmpp_2m_sde():
    return _sampler(sampling.sample_dpmpp_2m_sde)


def probe_sigmas_karras():
    return functools.partial(sampling.get_sigmas_karras, sigma_min=0.02, sigma_max=10.0), (8,)
