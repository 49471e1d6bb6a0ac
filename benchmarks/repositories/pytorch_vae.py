import functools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from models import vae_models

# The model parameters of configs/*.yaml, with smaller latents; images are 64x64 as there.
CONFIGS = {
    "VanillaVAE": {"latent_dim": 16},
    "BetaVAE": {"latent_dim": 16, "loss_type": "B", "gamma": 10.0, "max_capacity": 25,
                "Capacity_max_iter": 10000},
    "BetaTCVAE": {"latent_dim": 10, "anneal_steps": 10000, "alpha": 1.0, "beta": 6.0, "gamma": 1.0},
    "CategoricalVAE": {"latent_dim": 16, "categorical_dim": 8, "temperature": 0.5,
                       "anneal_rate": 0.00003, "anneal_interval": 100, "alpha": 1.0},
    "ConditionalVAE": {"num_classes": 4, "latent_dim": 16, "img_size": 64},
    "DIPVAE": {"latent_dim": 16, "lambda_diag": 0.05, "lambda_offdiag": 0.1},
    "GammaVAE": {"latent_dim": 16, "gamma_shape": 8.0, "prior_shape": 2.0, "prior_rate": 1.0},
    "InfoVAE": {"latent_dim": 16, "reg_weight": 110, "kernel_type": "imq", "alpha": -9.0,
                "beta": 10.5},
    "JointVAE": {"latent_dim": 16, "categorical_dim": 8, "latent_min_capacity": 0.0,
                 "latent_max_capacity": 20.0, "latent_gamma": 10.0, "latent_num_iter": 25000,
                 "categorical_min_capacity": 0.0, "categorical_max_capacity": 20.0,
                 "categorical_gamma": 10.0, "categorical_num_iter": 25000, "temperature": 0.5,
                 "anneal_rate": 0.00003, "anneal_interval": 100, "alpha": 10.0},
    "LogCoshVAE": {"latent_dim": 16, "alpha": 10.0, "beta": 1.0},
    "MIWAE": {"latent_dim": 16, "num_samples": 5, "num_estimates": 3},
    "MSSIMVAE": {"latent_dim": 16},
    "SWAE": {"latent_dim": 16, "reg_weight": 100, "wasserstein_deg": 2.0, "num_projections": 20,
             "projection_dist": "normal"},
    "VQVAE": {"embedding_dim": 16, "num_embeddings": 32, "img_size": 64, "beta": 0.25},
    "WAE_MMD": {"latent_dim": 16, "reg_weight": 100, "kernel_type": "imq"},
    "FactorVAE": {"latent_dim": 16, "gamma": 6.4},
    "HVAE": {"latent1_dim": 8, "latent2_dim": 8, "pseudo_input_size": 16},
}  # fmt: skip


def _model(name):
    torch.manual_seed(0)
    return vae_models[name](in_channels=3, **CONFIGS[name])


def _images():
    return torch.randn(2, 3, 64, 64)


def _loss(model, images, **options):
    """One training step's loss, as the experiment computes it."""
    results = model(images, **options)
    return model.loss_function(*results, M_N=0.005, batch_idx=0, optimizer_idx=0, **options)


def probe_vanilla_vae():
    return _model("VanillaVAE"), (_images(),)


def probe_vanilla_vae_loss():
    return functools.partial(_loss, _model("VanillaVAE")), (_images(),)


def probe_beta_vae_loss():
    return functools.partial(_loss, _model("BetaVAE")), (_images(),)


def probe_beta_tc_vae_loss():
    return functools.partial(_loss, _model("BetaTCVAE")), (_images(),)


def probe_categorical_vae_loss():
    return functools.partial(_loss, _model("CategoricalVAE")), (_images(),)


def probe_conditional_vae_loss():
    labels = torch.nn.functional.one_hot(torch.tensor([0, 2]), 4).float()
    return functools.partial(_loss, _model("ConditionalVAE"), labels=labels), (_images(),)


def probe_dip_vae_loss():
    return functools.partial(_loss, _model("DIPVAE")), (_images(),)


def probe_gamma_vae_loss():
    return functools.partial(_loss, _model("GammaVAE")), (_images(),)


def probe_info_vae_loss():
    return functools.partial(_loss, _model("InfoVAE")), (_images(),)


def probe_joint_vae_loss():
    return functools.partial(_loss, _model("JointVAE")), (_images(),)


def probe_logcosh_vae_loss():
    return functools.partial(_loss, _model("LogCoshVAE")), (_images(),)


def probe_miwae_loss():
    return functools.partial(_loss, _model("MIWAE")), (_images(),)


def probe_mssim_vae_loss():
    return functools.partial(_loss, _model("MSSIMVAE")), (_images(),)


def probe_swae_loss():
    return functools.partial(_loss, _model("SWAE")), (_images(),)


def probe_vq_vae_loss():
    return functools.partial(_loss, _model("VQVAE")), (_images(),)


def probe_wae_mmd_loss():
    return functools.partial(_loss, _model("WAE_MMD")), (_images(),)


def probe_factor_vae_loss():
    return functools.partial(_loss, _model("FactorVAE")), (_images(),)


def probe_hvae_loss():
    return functools.partial(_loss, _model("HVAE")), (_images(),)


def probe_vanilla_vae_sample():
    return _model("VanillaVAE").sample, (4, "cpu")
