import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from moe import MoE, SparseDispatcher


def _moe(noisy=True):
    return MoE(input_size=8, output_size=4, num_experts=4, hidden_size=16, noisy_gating=noisy, k=2)


def probe_moe_train():
    return _moe().train(), (torch.randn(6, 8),)


def probe_moe_eval():
    return _moe().eval(), (torch.randn(6, 8),)


def probe_moe_without_noise():
    return _moe(noisy=False).train(), (torch.randn(6, 8),)


def probe_noisy_top_k_gating():
    return _moe().noisy_top_k_gating, (torch.randn(6, 8), True)


def probe_cv_squared():
    return _moe().cv_squared, (torch.rand(4),)


def probe_dispatch():
    gates = torch.softmax(torch.randn(6, 4), 1) * (torch.rand(6, 4) > 0.3)
    return SparseDispatcher(4, gates).dispatch, (torch.randn(6, 8),)
