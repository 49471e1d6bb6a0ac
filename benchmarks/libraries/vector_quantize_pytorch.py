"""vector-quantize-pytorch (lucidrains): its quantizers, tiny, on random feature sequences and
feature maps: EMA vector quantization (plain, on an image feature map, multi-head with cosine
similarity, k-means initialised), residual and grouped residual VQ, random projection, finite
scalar (FSQ), lookup-free (LFQ), their residual forms, latent quantization, SimVQ and its
residual form."""

import torch
from vector_quantize_pytorch import (
    FSQ,
    LFQ,
    GroupedResidualVQ,
    LatentQuantize,
    RandomProjectionQuantizer,
    ResidualFSQ,
    ResidualLFQ,
    ResidualSimVQ,
    ResidualVQ,
    SimVQ,
    VectorQuantize,
)

PACKAGES = ("vector_quantize_pytorch",)
MODES = ("eval", "train")

_DIM = 32


def _sequence() -> torch.Tensor:
    return torch.randn(2, 16, _DIM)


def build_vector_quantize():
    return VectorQuantize(dim=_DIM, codebook_size=64), (_sequence(),)


def build_vector_quantize_image():
    model = VectorQuantize(dim=_DIM, codebook_size=64, accept_image_fmap=True)
    return model, (torch.randn(2, _DIM, 8, 8),)


def build_vector_quantize_multihead_cosine():
    model = VectorQuantize(
        dim=_DIM,
        codebook_size=64,
        heads=4,
        separate_codebook_per_head=True,
        use_cosine_sim=True,
        threshold_ema_dead_code=2,
    )
    return model, (_sequence(),)


def build_vector_quantize_kmeans():
    return VectorQuantize(dim=_DIM, codebook_size=16, kmeans_init=True), (_sequence(),)


def build_residual_vq():
    return ResidualVQ(dim=_DIM, num_quantizers=3, codebook_size=64), (_sequence(),)


def build_grouped_residual_vq():
    model = GroupedResidualVQ(dim=_DIM, groups=2, num_quantizers=2, codebook_size=64)
    return model, (_sequence(),)


def build_random_projection():
    model = RandomProjectionQuantizer(dim=_DIM, codebook_size=64, codebook_dim=16, num_codebooks=2)
    return model, (_sequence(),)


def build_fsq():
    return FSQ(levels=[8, 5, 5, 5], dim=_DIM), (_sequence(),)


def build_lfq():
    return LFQ(dim=_DIM, codebook_size=256, entropy_loss_weight=0.1), (_sequence(),)


def build_residual_fsq():
    return ResidualFSQ(levels=[8, 5, 5], num_quantizers=2, dim=_DIM), (_sequence(),)


def build_residual_lfq():
    return ResidualLFQ(dim=_DIM, num_quantizers=2, codebook_size=256), (_sequence(),)


def build_latent_quantize():
    # Channels first: a feature map.
    return LatentQuantize(levels=[5, 5, 5], dim=_DIM), (torch.randn(2, _DIM, 4, 4),)


def build_sim_vq():
    return SimVQ(dim=_DIM, codebook_size=64), (_sequence(),)


def build_residual_sim_vq():
    return ResidualSimVQ(dim=_DIM, num_quantizers=2, codebook_size=64), (_sequence(),)
