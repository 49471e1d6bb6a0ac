import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from transformer.Models import Transformer
from transformer.Translator import Translator

PAD, BOS, EOS, VOCAB = 0, 1, 2, 40


def _transformer():
    return Transformer(
        VOCAB, VOCAB, src_pad_idx=PAD, trg_pad_idx=PAD, d_word_vec=16, d_model=16, d_inner=32,
        n_layers=2, n_head=2, d_k=8, d_v=8, dropout=0.1, n_position=32,
    )  # fmt: skip


def _sequence(length):
    return torch.randint(3, VOCAB, (2, length))


def probe_transformer_train():
    return _transformer().train(), (_sequence(7), _sequence(6))


def probe_transformer_eval():
    return _transformer().eval(), (_sequence(7), _sequence(6))


def probe_translate_sentence():
    translator = Translator(_transformer(), 3, 8, PAD, PAD, BOS, EOS)
    return translator.translate_sentence, (_sequence(7)[:1],)
