"""x-transformers (lucidrains): its wrappers and attention-layer stacks, tiny, random weights:
a decoder-only and an encoder-only language model, an encoder-decoder, a vision transformer, a
continuous-input transformer, the autoregressive and non-autoregressive training wrappers, a
cross-attender, a decoder with rotary positions and memory tokens, and the xVal number model."""

import torch
from x_transformers import (
    AutoregressiveWrapper,
    ContinuousTransformerWrapper,
    CrossAttender,
    Decoder,
    Encoder,
    NonAutoregressiveWrapper,
    TransformerWrapper,
    ViTransformerWrapper,
    XTransformer,
    XValTransformerWrapper,
)

PACKAGES = ("x_transformers",)
MODES = ("eval", "train")

_DIM, _DEPTH, _HEADS, _TOKENS, _LENGTH = 32, 2, 2, 64, 16


def _tokens(length: int = _LENGTH) -> torch.Tensor:
    return torch.randint(0, _TOKENS, (2, length))


def build_decoder_lm():
    model = TransformerWrapper(
        num_tokens=_TOKENS,
        max_seq_len=_LENGTH,
        attn_layers=Decoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return model, (_tokens(),)


def build_encoder_lm():
    model = TransformerWrapper(
        num_tokens=_TOKENS,
        max_seq_len=_LENGTH,
        attn_layers=Encoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    mask = torch.ones(2, _LENGTH, dtype=torch.bool)
    return model, (_tokens(),), {"mask": mask}


def build_encoder_decoder():
    model = XTransformer(
        dim=_DIM,
        enc_num_tokens=_TOKENS,
        enc_depth=_DEPTH,
        enc_heads=_HEADS,
        enc_max_seq_len=_LENGTH,
        dec_num_tokens=_TOKENS,
        dec_depth=_DEPTH,
        dec_heads=_HEADS,
        dec_max_seq_len=_LENGTH,
    )
    mask = torch.ones(2, _LENGTH, dtype=torch.bool)
    return model, (_tokens(), _tokens()), {"mask": mask}


def build_vision_transformer():
    model = ViTransformerWrapper(
        image_size=32,
        patch_size=8,
        num_classes=10,
        attn_layers=Encoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return model, (torch.randn(2, 3, 32, 32),)


def build_continuous():
    model = ContinuousTransformerWrapper(
        dim_in=8,
        dim_out=8,
        max_seq_len=_LENGTH,
        attn_layers=Decoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return model, (torch.randn(2, _LENGTH, 8),)


def build_autoregressive_loss():
    net = TransformerWrapper(
        num_tokens=_TOKENS,
        max_seq_len=_LENGTH,
        attn_layers=Decoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return AutoregressiveWrapper(net), (_tokens(),)


def build_nonautoregressive_loss():
    net = TransformerWrapper(
        num_tokens=_TOKENS + 1,
        max_seq_len=_LENGTH,
        attn_layers=Encoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return NonAutoregressiveWrapper(net, mask_id=_TOKENS), (_tokens(),)


def build_cross_attender():
    model = CrossAttender(dim=_DIM, depth=_DEPTH, heads=_HEADS)
    return model, (torch.randn(2, _LENGTH, _DIM),), {"context": torch.randn(2, 8, _DIM)}


def build_rotary_memory_decoder():
    model = TransformerWrapper(
        num_tokens=_TOKENS,
        max_seq_len=_LENGTH,
        num_memory_tokens=4,
        attn_layers=Decoder(
            dim=_DIM, depth=_DEPTH, heads=_HEADS, rotary_pos_emb=True, ff_glu=True, use_rmsnorm=True
        ),
    )
    return model, (_tokens(),)


def build_xval():
    model = XValTransformerWrapper(
        num_tokens=_TOKENS,
        max_seq_len=_LENGTH,
        numerical_token_id=_TOKENS - 1,
        attn_layers=Decoder(dim=_DIM, depth=_DEPTH, heads=_HEADS),
    )
    return model, (_tokens(), torch.randn(2, _LENGTH))
