"""mmdit (the multimodal diffusion transformer of Stable Diffusion 3, lucidrains-style research
code), tiny, random weights (nothing is downloaded), on random text and image tokens from
`torch.randn`: the two-modality MMDiT with and without time conditioning, text masks,
register tokens and hyper-connection residual streams; one block with query-key RMS norm and
text feed-forward; the generalised MMDiT over three modalities (manifold-constrained hyper
connections, masks per modality); joint attention on its own; adaptive attention with gated
weights and soft-clamped logits. `hyper_connections`, whose residual streams every block
uses, is linted beside it."""

import torch
from mmdit import JointAttention, MMDiT, MMDiTBlock
from mmdit.adaptive_attention import AdaptiveAttention
from mmdit.mmdit_generalized_pytorch import MMDiT as GeneralizedMMDiT

PACKAGES = ("mmdit", "hyper_connections")
MODES = ("eval", "train")

_TEXT = 12
_IMAGE = 16
_COND = 8
_BATCH = 2
_HEADS = {"heads": 2, "dim_head": 8}


def _text() -> torch.Tensor:
    return torch.randn(_BATCH, 5, _TEXT)


def _image() -> torch.Tensor:
    return torch.randn(_BATCH, 9, _IMAGE)


def _mask(length: int) -> torch.Tensor:
    mask = torch.ones(_BATCH, length, dtype=torch.bool)
    mask[0, length // 2 :] = False
    return mask


def _two_modalities(**options):
    settings = {"depth": 2, "dim_text": _TEXT, "dim_image": _IMAGE, **_HEADS}
    return MMDiT(**(settings | options))


def build_mmdit():
    model = _two_modalities(num_residual_streams=1)
    return model, (), {"text_tokens": _text(), "image_tokens": _image()}


def build_mmdit_time_conditioned_masked():
    model = _two_modalities(dim_cond=_COND, num_residual_streams=1)
    inputs = {"text_tokens": _text(), "image_tokens": _image(), "text_mask": _mask(5)}
    return model, (), inputs | {"time_cond": torch.randn(_BATCH, _COND)}


def build_mmdit_hyper_connections_registers():
    model = _two_modalities(dim_cond=_COND, num_residual_streams=4, num_register_tokens=3)
    inputs = {"text_tokens": _text(), "image_tokens": _image(), "time_cond": torch.randn(2, 8)}
    return model, (), inputs | {"should_skip_last_feedforward": False}


def build_block_qk_rmsnorm_text_feedforward():
    block = MMDiTBlock(dim_text=_TEXT, dim_image=_IMAGE, qk_rmsnorm=True, **_HEADS)
    inputs = {"text_tokens": _text(), "image_tokens": _image(), "text_mask": _mask(5)}
    return block, (), inputs | {"skip_feedforward_text_tokens": False}


def _three_modalities():
    return (_text(), _image(), torch.randn(_BATCH, 4, 10))


def build_generalized_three_modalities():
    model = GeneralizedMMDiT(depth=2, dim_modalities=(_TEXT, _IMAGE, 10), **_HEADS)
    return model, (), {"modality_tokens": _three_modalities()}


def build_generalized_conditioned_masked_single_stream():
    model = GeneralizedMMDiT(
        depth=2,
        dim_modalities=(_TEXT, _IMAGE, 10),
        dim_cond=_COND,
        num_residual_streams=1,
        softclamp=True,
        qk_rmsnorm=True,
        **_HEADS,
    )
    inputs = {"modality_tokens": _three_modalities(), "time_cond": torch.randn(_BATCH, _COND)}
    return model, (), inputs | {"modality_masks": (_mask(5), None, _mask(4))}


def build_joint_attention():
    attention = JointAttention(dim_inputs=(_TEXT, _IMAGE), qk_rmsnorm=True, **_HEADS)
    return attention, (), {"inputs": (_text(), _image()), "masks": (_mask(5), None)}


def build_adaptive_attention_gated():
    attention = AdaptiveAttention(dim=_IMAGE, num_adaptive_weights=3, softclamp=True, **_HEADS)
    return attention, (_image(),), {"mask": _mask(9)}


def build_adaptive_attention_single_weight():
    return AdaptiveAttention(dim=_IMAGE, **_HEADS), (_image(),)
