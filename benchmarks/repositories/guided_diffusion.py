import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from guided_diffusion.script_util import create_model_and_diffusion, model_and_diffusion_defaults


def _made(**changes):
    args = model_and_diffusion_defaults()
    args.update(
        image_size=16,
        num_channels=32,
        num_res_blocks=1,
        attention_resolutions="4",
        channel_mult="1,2",
        num_heads=2,
        diffusion_steps=50,
        noise_schedule="cosine",
        learn_sigma=True,
        **changes,
    )
    return create_model_and_diffusion(**args)


def _x():
    return torch.randn(2, 3, 16, 16)


def probe_unet():
    model, _ = _made()
    return model, (_x(), torch.tensor([1, 7]))


def probe_training_losses():
    model, diffusion = _made()
    return diffusion.training_losses, (model, _x(), torch.tensor([1, 7]))


def probe_p_sample():
    model, diffusion = _made()
    return diffusion.p_sample, (model.eval(), _x(), torch.tensor([5, 5]))


def probe_ddim_sample():
    model, diffusion = _made(timestep_respacing="ddim5")
    return diffusion.ddim_sample, (model.eval(), _x(), torch.tensor([3, 3]))
