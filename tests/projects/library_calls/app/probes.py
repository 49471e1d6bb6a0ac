"""Probes: each returns (callable, args)."""

import torch
from model import Regressor


def probe_regressor():
    points = torch.randn(4, 3)
    return Regressor(), (points,)
