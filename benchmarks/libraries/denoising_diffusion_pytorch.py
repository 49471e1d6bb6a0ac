"""denoising-diffusion-pytorch (lucidrains): tiny U-Nets and the diffusion wrappers around
them, random weights, 16x16 images: the U-Net alone, the Gaussian diffusion training loss and
its DDIM sampler, the 1-D U-Net and diffusion, the Karras (EDM2) U-Net, elucidated, continuous
time and learned-variance diffusion losses, the classifier-free guidance U-Net, and the simple
diffusion U-ViT."""

import torch
from denoising_diffusion_pytorch import (
    ContinuousTimeGaussianDiffusion,
    ElucidatedDiffusion,
    GaussianDiffusion,
    GaussianDiffusion1D,
    KarrasUnet,
    LearnedGaussianDiffusion,
    Unet,
    Unet1D,
    classifier_free_guidance,
    simple_diffusion,
)

PACKAGES = ("denoising_diffusion_pytorch",)
MODES = ("eval", "train")

_SIZE = 16


def _unet(**options: object) -> Unet:
    return Unet(dim=8, dim_mults=(1, 2), attn_dim_head=8, attn_heads=2, **options)


def _images() -> torch.Tensor:
    return torch.rand(2, 3, _SIZE, _SIZE)


def build_unet():
    return _unet(), (torch.randn(2, 3, _SIZE, _SIZE), torch.randint(0, 10, (2,)))


def build_gaussian_diffusion_loss():
    return GaussianDiffusion(_unet(), image_size=_SIZE, timesteps=10), (_images(),)


def build_gaussian_diffusion_ddim_sample():
    diffusion = GaussianDiffusion(_unet(), image_size=_SIZE, timesteps=10, sampling_timesteps=3)
    return diffusion.sample, (), {"batch_size": 2}


def build_gaussian_diffusion_1d_loss():
    model = Unet1D(dim=8, dim_mults=(1, 2), channels=2, attn_dim_head=8, attn_heads=2)
    diffusion = GaussianDiffusion1D(model, seq_length=32, timesteps=10)
    return diffusion, (torch.rand(2, 2, 32),)


def build_karras_unet():
    model = KarrasUnet(
        image_size=_SIZE,
        dim=16,
        dim_max=32,
        channels=3,
        num_downsamples=2,
        num_blocks_per_stage=1,
        attn_res=(8,),
        attn_dim_head=8,
    )
    return model, (torch.randn(2, 3, _SIZE, _SIZE), torch.rand(2))


def build_elucidated_diffusion_loss():
    model = _unet(learned_sinusoidal_cond=True)  # it takes noise levels, not step numbers
    diffusion = ElucidatedDiffusion(model, image_size=_SIZE, num_sample_steps=4)
    return diffusion, (_images(),)


def build_continuous_time_diffusion_loss():
    model = _unet(random_fourier_features=True)
    diffusion = ContinuousTimeGaussianDiffusion(model, image_size=_SIZE, num_sample_steps=4)
    return diffusion, (_images(),)


def build_learned_variance_diffusion_loss():
    model = _unet(learned_variance=True)
    return LearnedGaussianDiffusion(model, image_size=_SIZE, timesteps=10), (_images(),)


def build_classifier_free_guidance_unet():
    model = classifier_free_guidance.Unet(
        dim=8, num_classes=4, dim_mults=(1, 2), attn_dim_head=8, attn_heads=2
    )
    arguments = (torch.randn(2, 3, _SIZE, _SIZE), torch.randint(0, 10, (2,)))
    return model, arguments, {"classes": torch.randint(0, 4, (2,))}


def build_simple_diffusion_uvit_loss():
    model = simple_diffusion.UViT(
        dim=8, dim_mults=(1, 2), vit_depth=1, attn_dim_head=8, attn_heads=2
    )
    diffusion = simple_diffusion.GaussianDiffusion(model, image_size=_SIZE, num_sample_steps=4)
    return diffusion, (_images(),)
