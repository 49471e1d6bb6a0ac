import functools
import os
import sys

import torch

# The repository's scripts put src/transformer and src/utils on the path (flat imports such as
# `from decoder import Decoder` and `from utils import IGNORE_ID`, utils being src/utils/utils.py).
_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
sys.path[:0] = [os.path.join(_SRC, "transformer"), os.path.join(_SRC, "utils")]
from decoder import Decoder  # noqa: E402
from encoder import Encoder  # noqa: E402
from loss import cal_performance  # noqa: E402
from transformer import Transformer  # noqa: E402

IGNORE_ID = -1


def _transformer():
    encoder = Encoder(d_input=12, n_layers=2, n_head=2, d_k=8, d_v=8, d_model=16, d_inner=32)
    decoder = Decoder(
        sos_id=1, eos_id=2, n_tgt_vocab=20, d_word_vec=16, n_layers=2, n_head=2, d_k=8, d_v=8,
        d_model=16, d_inner=32,
    )  # fmt: skip
    return Transformer(encoder, decoder)


def _batch():
    padded_input = torch.randn(2, 10, 12)
    input_lengths = torch.tensor([10, 7])
    padded_target = torch.tensor([[3, 4, 5, 6], [7, 8, IGNORE_ID, IGNORE_ID]])
    return padded_input, input_lengths, padded_target


def probe_transformer_train():
    return _transformer().train(), _batch()


def probe_transformer_eval():
    return _transformer().eval(), _batch()


def probe_encoder_eval():
    padded_input, input_lengths, _ = _batch()
    encoder = Encoder(d_input=12, n_layers=2, n_head=2, d_k=8, d_v=8, d_model=16, d_inner=32)
    return encoder.eval(), (padded_input, input_lengths)


def probe_cal_performance():
    pred = torch.randn(2, 5, 20)
    gold = torch.tensor([[3, 4, 5, 6, 2], [7, 8, 2, IGNORE_ID, IGNORE_ID]])
    return functools.partial(cal_performance, smoothing=0.1), (pred, gold)
