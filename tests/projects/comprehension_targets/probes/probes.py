"""Comprehensions over a tensor's rows, whose element reads the variables its `for` binds."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Solver, Stepper  # noqa: E402


def probe_solver():
    return Solver(), (torch.randn(2, 4), torch.rand(3))


def probe_stepper():
    return Stepper(), (torch.randn(2, 4),)
