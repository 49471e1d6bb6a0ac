"""MONAI (medical imaging), tiny networks with random weights (nothing is downloaded), on random
2D slices or 3D volumes from `torch.randn`. Segmentation networks (UNet with residual units,
BasicUNet, SegResNet and its VAE branch, DynUNet with deep supervision, attention U-Net, UNETR
and SwinUNETR), a vision transformer classifier, autoencoders (a variational one, a VQ-VAE, a
KL autoencoder), a diffusion U-Net with a timestep, an image registration network (LocalNet),
and the Dice + cross entropy segmentation loss on logits and labels, in eval mode (inference)
and train mode."""

import monai
import torch
from monai.networks import nets

PACKAGES = ("monai",)
MODES = ("eval", "train")


def _image(channels: int = 1, size: int = 16, dims: int = 3, batch: int = 2) -> torch.Tensor:
    return torch.randn(batch, channels, *([size] * dims))


def build_unet_residual_3d():
    model = nets.UNet(3, 1, 2, channels=(4, 8, 16), strides=(2, 2), num_res_units=2)
    return model, (_image(),)


def build_basic_unet_2d():
    model = nets.BasicUNet(
        spatial_dims=2, in_channels=1, out_channels=2, features=(4, 4, 8, 8, 16, 4)
    )
    return model, (_image(size=32, dims=2),)


def build_segresnet_3d():
    model = nets.SegResNet(
        spatial_dims=3,
        init_filters=4,
        in_channels=1,
        out_channels=2,
        norm=("GROUP", {"num_groups": 2}),
    )
    return model, (_image(),)


def build_segresnet_vae(mode):
    model = nets.SegResNetVAE(
        input_image_size=(16, 16, 16),
        vae_nz=8,
        init_filters=4,
        in_channels=1,
        out_channels=2,
        norm=("GROUP", {"num_groups": 2}),
    )
    return model, (_image(),)


def build_dynunet_deep_supervision():
    model = nets.DynUNet(
        3,
        1,
        2,
        kernel_size=[3, 3, 3],
        strides=[1, 2, 2],
        upsample_kernel_size=[2, 2],
        filters=[4, 8, 16],
        deep_supervision=True,
        deep_supr_num=1,
        res_block=True,
    )
    return model, (_image(),)


def build_attention_unet_2d():
    model = nets.AttentionUnet(2, 1, 2, channels=(4, 8, 16), strides=(2, 2))
    return model, (_image(dims=2),)


def build_unetr():
    model = nets.UNETR(
        in_channels=1,
        out_channels=2,
        img_size=16,
        feature_size=4,
        hidden_size=32,
        mlp_dim=64,
        num_heads=2,
    )
    return model, (_image(),)


def build_swin_unetr():
    model = nets.SwinUNETR(
        in_channels=1,
        out_channels=2,
        depths=(1, 1, 1, 1),
        num_heads=(1, 1, 2, 2),
        feature_size=12,
        window_size=4,
        spatial_dims=2,
    )
    return model, (_image(size=64, dims=2),)


def build_vit_classifier():
    model = nets.ViT(
        in_channels=1,
        img_size=16,
        patch_size=4,
        hidden_size=32,
        mlp_dim=64,
        num_layers=2,
        num_heads=2,
        classification=True,
        num_classes=3,
        spatial_dims=2,
    )
    return model, (_image(dims=2),)


def build_variational_autoencoder(mode):
    model = nets.VarAutoEncoder(
        spatial_dims=2,
        in_shape=(1, 16, 16),
        out_channels=1,
        latent_size=4,
        channels=(4, 8),
        strides=(2, 2),
    )
    return model, (_image(dims=2),)


def build_vqvae(mode):
    model = nets.VQVAE(
        spatial_dims=2,
        in_channels=1,
        out_channels=1,
        channels=(8, 8),
        num_res_layers=1,
        num_res_channels=(8, 8),
        downsample_parameters=((2, 4, 1, 1), (2, 4, 1, 1)),
        upsample_parameters=((2, 4, 1, 1, 0), (2, 4, 1, 1, 0)),
        num_embeddings=16,
        embedding_dim=4,
    )
    return model, (_image(dims=2),)


def build_autoencoder_kl(mode):
    model = nets.AutoencoderKL(
        spatial_dims=2,
        in_channels=1,
        out_channels=1,
        num_res_blocks=(1, 1),
        channels=(8, 8),
        attention_levels=(False, True),
        latent_channels=2,
        norm_num_groups=4,
    )
    return model, (_image(dims=2),)


def build_diffusion_unet(mode):
    model = nets.DiffusionModelUNet(
        spatial_dims=2,
        in_channels=1,
        out_channels=1,
        num_res_blocks=1,
        channels=(8, 8),
        attention_levels=(False, True),
        norm_num_groups=4,
        num_head_channels=4,
    )
    return model, (_image(dims=2), torch.randint(0, 1000, (2,)))


def build_localnet_registration():
    model = nets.LocalNet(
        spatial_dims=2,
        in_channels=2,
        num_channel_initial=4,
        extract_levels=(0, 1, 2),
        out_channels=2,
    )
    return model, (_image(channels=2, dims=2),)


def _segmentation(loss):
    logits = torch.randn(2, 3, 8, 8, 8, requires_grad=True)
    labels = torch.randint(0, 3, (2, 1, 8, 8, 8))
    return loss, (logits, labels)


def build_dice_ce_loss():
    return _segmentation(monai.losses.DiceCELoss(to_onehot_y=True, softmax=True))
