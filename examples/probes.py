"""Probes for the examples: `breaklint examples --probes examples/probes.py` runs them under
torch.compile and confirms (or refutes) each static finding."""

import torch
from tiny_attention import TinyAttention


def probe_tiny_attention():
    return TinyAttention(), (torch.randn(2, 5, 16),)
