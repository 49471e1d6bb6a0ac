"""fair-esm (Meta's evolutionary-scale protein language models, research code), tiny models with
random weights (nothing is downloaded), on protein sequences tokenised with the library's own
alphabets and batch converters: ESM-2 (representations from chosen layers, attention maps,
contact prediction, token dropout), ESM-1b and ESM-1 (learned and sinusoidal positions), the MSA
Transformer over multiple sequence alignments (tied row attention, column attention, learned
alignment positions, and the chunked attention it falls back to for large alignments), and the
library's building blocks on their own (the contact head, rotary embeddings, the transformer
layer, axial attention)."""

from argparse import Namespace

import esm
import torch
from esm.axial_attention import ColumnSelfAttention, RowSelfAttention
from esm.model.esm1 import ProteinBertModel
from esm.model.esm2 import ESM2
from esm.model.msa_transformer import MSATransformer
from esm.modules import ContactPredictionHead, TransformerLayer
from esm.rotary_embedding import RotaryEmbedding

PACKAGES = ("esm",)
MODES = ("eval", "train")

_SEQUENCES = [("first", "MKTAYIAKQRQISFVKSHFSRQ"), ("second", "KALTARQQEVFDLIRD<mask>GYL")]
_ALIGNMENT = [
    ("a", "MKTAYIAKQRQISFVKSHF"),
    ("b", "MKTAYI-KQRQLSFVKSHF"),
    ("c", "MRTAYIAKQ-QISFVKAHF"),
]


def _tokens(architecture: str):
    alphabet = esm.Alphabet.from_architecture(architecture)
    _, _, tokens = alphabet.get_batch_converter()(_SEQUENCES)
    return alphabet, tokens


def _alignment_tokens(alphabet):
    _, _, tokens = alphabet.get_batch_converter()([_ALIGNMENT, _ALIGNMENT])
    return tokens


def _esm2(token_dropout: bool = True):
    alphabet, tokens = _tokens("ESM-1b")
    model = ESM2(
        num_layers=2,
        embed_dim=32,
        attention_heads=4,
        alphabet=alphabet,
        token_dropout=token_dropout,
    )
    return model, tokens


def build_esm2_logits():
    model, tokens = _esm2()
    return model, (tokens,)


def build_esm2_representations_and_contacts():
    model, tokens = _esm2()
    return model, (tokens,), {"repr_layers": [0, 2], "return_contacts": True}


def build_esm2_attention_maps_without_token_dropout():
    model, tokens = _esm2(token_dropout=False)
    return model, (tokens,), {"need_head_weights": True}


def build_esm2_predict_contacts():
    model, tokens = _esm2()
    return model.predict_contacts, (tokens,)


def _esm1_arguments(architecture: str) -> Namespace:
    return Namespace(
        arch=architecture,
        layers=2,
        embed_dim=32,
        ffn_embed_dim=64,
        attention_heads=4,
        max_positions=64,
        final_bias=True,
        emb_layer_norm_before=True,
        dropout=0.1,
        attention_dropout=0.1,
        activation_dropout=0.1,
    )


def build_esm1b_contacts():
    alphabet, tokens = _tokens("ESM-1b")
    model = ProteinBertModel(_esm1_arguments("roberta_large"), alphabet)
    return model, (tokens,), {"repr_layers": [2], "return_contacts": True}


def build_esm1_sinusoidal():
    alphabet, tokens = _tokens("ESM-1")
    model = ProteinBertModel(_esm1_arguments("protein_bert_base"), alphabet)
    return model, (tokens,), {"repr_layers": [1]}


def _msa_transformer(max_tokens_per_msa: int = 2**14, positions: bool = False):
    alphabet = esm.Alphabet.from_architecture("msa_transformer")
    arguments = _esm1_arguments("msa_transformer")
    arguments.max_tokens = arguments.max_tokens_per_msa = max_tokens_per_msa
    arguments.embed_positions_msa = positions
    return MSATransformer(arguments, alphabet), (_alignment_tokens(alphabet),)


def build_msa_transformer_contacts():
    model, tokens = _msa_transformer()
    return model, tokens, {"repr_layers": [2], "return_contacts": True}


def build_msa_transformer_chunked_attention():
    model, tokens = _msa_transformer(max_tokens_per_msa=16)
    return model, tokens, {"need_head_weights": True}


def build_msa_transformer_alignment_positions():
    model, tokens = _msa_transformer(positions=True)
    return model, tokens


def build_contact_head():
    head = ContactPredictionHead(in_features=2 * 4, prepend_bos=True, append_eos=True, eos_idx=2)
    tokens = torch.randint(4, 20, (2, 12))
    tokens[:, 0], tokens[:, -1] = 0, 2
    return head, (tokens, torch.rand(2, 2, 4, 12, 12))


class _RotaryAttentionScores(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rotary = RotaryEmbedding(dim=8)

    def forward(self, queries, keys):
        queries, keys = self.rotary(queries, keys)
        return queries @ keys.transpose(-1, -2)


def build_rotary_embedding():
    return _RotaryAttentionScores(), (torch.randn(2, 4, 10, 8), torch.randn(2, 4, 10, 8))


def build_transformer_layer_with_padding():
    layer = TransformerLayer(32, 64, 4, use_rotary_embeddings=True)
    padding = torch.zeros(2, 10, dtype=torch.bool)
    padding[1, 7:] = True
    return layer, (torch.randn(10, 2, 32),), {"self_attn_padding_mask": padding}


def build_row_self_attention():
    attention = RowSelfAttention(embed_dim=32, num_heads=4, max_tokens_per_msa=24)
    return attention, (torch.randn(3, 10, 2, 32),)


def build_column_self_attention():
    attention = ColumnSelfAttention(embed_dim=32, num_heads=4, max_tokens_per_msa=24)
    return attention, (torch.randn(3, 10, 2, 32),)
