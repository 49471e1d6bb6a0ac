import functools
import os
import sys
from types import SimpleNamespace

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import losses
import sampling
import sde_lib
from models import ddpm  # noqa: F401  (registers the model)
from models import utils as mutils


def _config(name, sigma_max=1.0):
    model = SimpleNamespace(
        name=name,
        nf=32,
        ch_mult=(1, 2),
        num_res_blocks=1,
        attn_resolutions=(4,),
        dropout=0.0,
        resamp_with_conv=True,
        conditional=True,
        nonlinearity="swish",
        normalization="InstanceNorm++",
        scale_by_sigma=False,
        sigma_min=0.01,
        sigma_max=sigma_max,
        num_scales=4,
        beta_min=0.1,
        beta_max=20.0,
        num_classes=4,
    )
    data = SimpleNamespace(image_size=8, num_channels=3, channels=3, centered=False)
    return SimpleNamespace(model=model, data=data, device="cpu")


def _ddpm():
    return mutils.get_model("ddpm")(_config("ddpm"))


def _images():
    return torch.rand(2, 3, 8, 8)


def probe_ddpm_train():
    return _ddpm(), (_images(), torch.tensor([1, 3]))


def probe_vp_score_continuous():
    sde = sde_lib.VPSDE(N=4)
    return mutils.get_score_fn(sde, _ddpm(), continuous=True), (_images(), torch.rand(2))


def probe_ve_score_discrete():
    sde = sde_lib.VESDE(N=4)
    return mutils.get_score_fn(sde, _ddpm(), continuous=False), (_images(), torch.rand(2))


def probe_sde_loss_train():
    loss_fn = losses.get_sde_loss_fn(sde_lib.VPSDE(N=4), train=True)
    return loss_fn, (_ddpm(), _images())


def probe_ddpm_loss_train():
    loss_fn = losses.get_ddpm_loss_fn(sde_lib.VPSDE(N=4), train=True)
    return loss_fn, (_ddpm(), _images())


def probe_reverse_diffusion_step():
    update = functools.partial(
        sampling.shared_predictor_update_fn,
        sde=sde_lib.VPSDE(N=4),
        model=_ddpm(),
        predictor=sampling.ReverseDiffusionPredictor,
        probability_flow=False,
        continuous=True,
    )
    return update, (_images(), torch.full((2,), 0.5))


def probe_ancestral_step():
    update = functools.partial(
        sampling.shared_predictor_update_fn,
        sde=sde_lib.VESDE(N=4),
        model=_ddpm(),
        predictor=sampling.AncestralSamplingPredictor,
        probability_flow=False,
        continuous=False,
    )
    return update, (_images(), torch.full((2,), 0.5))


def probe_langevin_step():
    update = functools.partial(
        sampling.shared_corrector_update_fn,
        sde=sde_lib.VPSDE(N=4),
        model=_ddpm(),
        corrector=sampling.LangevinCorrector,
        continuous=True,
        snr=0.16,
        n_steps=2,
    )
    return update, (_images(), torch.full((2,), 0.5))


def probe_pc_sampler():
    sampler = sampling.get_pc_sampler(
        sde_lib.VPSDE(N=3),
        (2, 3, 8, 8),
        sampling.EulerMaruyamaPredictor,
        sampling.AnnealedLangevinDynamics,
        lambda x: x,
        snr=0.16,
        continuous=True,
        device="cpu",
    )
    return sampler, (_ddpm().eval(),)
