"""reformer-pytorch (locality-sensitive-hashing attention, reversible layers), tiny models with
random weights on random token ids (nothing is downloaded). The language model as training and
generation call it: causal and bidirectional, with an input mask, through the padding wrapper
(sequences that are not a multiple of the bucket size) and the training wrapper's loss; its
options: reversible layers (the default) or plain residuals above a threshold, full attention
instead of LSH, memory key/values, local attention heads, product-key memory layers, axial and
absolute position embeddings, shared query-key with one value head, chunked feed-forwards; the
LSH self-attention on its own (with keys from a context), the bare LSH attention over a shared
query-key tensor, the encoder-decoder's loss and the attention recorder."""

import torch
from reformer_pytorch import (
    Autopadder,
    LSHAttention,
    LSHSelfAttention,
    Recorder,
    Reformer,
    ReformerEncDec,
    ReformerLM,
)
from reformer_pytorch.generative_tools import TrainingWrapper

PACKAGES = ("reformer_pytorch",)
MODES = ("eval", "train")

_BATCH = 2
_TOKENS = 32
_SEQ = 32
_SMALL = {"dim": 16, "depth": 1, "heads": 2, "dim_head": 8, "bucket_size": 4, "n_hashes": 2}


def _tokens(length: int = _SEQ) -> torch.Tensor:
    return torch.randint(0, _TOKENS, (_BATCH, length))


def _lm(**options) -> ReformerLM:
    return ReformerLM(num_tokens=_TOKENS, max_seq_len=_SEQ, **{**_SMALL, **options})


def build_lm_causal():
    tokens = _tokens()
    return _lm(causal=True), (tokens,), {"input_mask": torch.ones_like(tokens).bool()}


def build_lm_bidirectional_masked():
    tokens = _tokens()
    mask = torch.ones_like(tokens).bool()
    mask[:, -5:] = False
    return _lm(ff_chunks=2, attn_chunks=2), (tokens,), {"input_mask": mask}


def build_lm_residual_full_attention():
    # Longer than the reversible threshold's opposite: plain residual blocks, full attention.
    return _lm(use_full_attn=True, reverse_thres=1024, causal=True), (_tokens(),)


def build_lm_memory_local_heads():
    model = _lm(num_mem_kv=8, n_local_attn_heads=1, heads=2, use_scale_norm=True, ff_glu=True)
    return model, (_tokens(),)


def build_lm_product_key_memory():
    return _lm(depth=2, pkm_layers=(1,), pkm_num_keys=64, use_rezero=True), (_tokens(),)


def build_lm_axial_position():
    model = _lm(axial_position_emb=True, axial_position_shape=(8, 4), one_value_head=True)
    return model, (_tokens(),)


def build_lm_absolute_position_weight_tie():
    model = _lm(absolute_position_emb=True, weight_tie=True, weight_tie_embedding=True, depth=2)
    return model, (_tokens(),)


def build_autopadder():
    return Autopadder(_lm(causal=True)), (_tokens(30),)


def build_training_wrapper_loss():
    return TrainingWrapper(_lm(causal=True)), (_tokens(_SEQ + 1),), {"return_loss": True}


def build_reformer_embeddings():
    model = Reformer(**_SMALL, lsh_dropout=0.1, ff_dropout=0.1, layer_dropout=0.1)
    return model, (torch.randn(_BATCH, _SEQ, 16),)


def build_lsh_self_attention_with_keys():
    attention = LSHSelfAttention(dim=16, heads=2, bucket_size=4, n_hashes=2, causal=False)
    return attention, (torch.randn(_BATCH, _SEQ, 16),), {"keys": torch.randn(_BATCH, 8, 16)}


def build_lsh_attention():
    attention = LSHAttention(bucket_size=4, n_hashes=2, causal=True, return_attn=True)
    shared_qk, values = torch.randn(_BATCH, _SEQ, 8), torch.randn(_BATCH, _SEQ, 8)
    return attention, (shared_qk, values)


def build_encoder_decoder_loss():
    # The encoder's and the decoder's options, prefixed `enc_` and `dec_` (its convention).
    side = {"num_tokens": _TOKENS, "depth": 1, "max_seq_len": _SEQ, "bucket_size": 4, "heads": 2}
    options = {f"{prefix}_{key}": value for prefix in ("enc", "dec") for key, value in side.items()}
    model = ReformerEncDec(dim=16, enc_dim_head=8, dec_dim_head=8, **options)
    return model, (_tokens(), _tokens(_SEQ + 1)), {"return_loss": True}


def build_recorder():
    return Recorder(_lm()), (_tokens(),)
