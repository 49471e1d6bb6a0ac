import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from conformer import Conformer
from conformer.attention import MultiHeadedSelfAttentionModule
from conformer.convolution import Conv2dSubampling

FEATURES, DIM = 16, 16


def _conformer(**options):
    return Conformer(num_classes=10, input_dim=FEATURES, encoder_dim=DIM, num_encoder_layers=2,
                     num_attention_heads=2, conv_kernel_size=3, **options)  # fmt: skip


def _batch():
    return torch.rand(2, 40, FEATURES), torch.tensor([40, 31])


def probe_conformer_eval():
    return _conformer().eval(), _batch()


def probe_conformer_train():
    return _conformer().train(), _batch()


def probe_conformer_full_step_residual():
    return _conformer(half_step_residual=False).eval(), _batch()


def probe_self_attention_with_mask():
    module = MultiHeadedSelfAttentionModule(DIM, 2).eval()
    return module, (torch.rand(2, 10, DIM), torch.zeros(2, 1, 10, dtype=torch.bool))


def probe_subsampling():
    return Conv2dSubampling(1, DIM).eval(), _batch()
