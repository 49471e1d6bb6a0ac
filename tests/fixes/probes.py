"""Probes for the fix fixtures: each returns (callable, args)."""

import torch
from nine_findings import Encoder
from statistic_module import Normalizer


def probe_normalizer():
    return Normalizer(), (torch.randn(4, 16),)


def probe_encoder():
    return Encoder(), (torch.randn(4, 16),)
