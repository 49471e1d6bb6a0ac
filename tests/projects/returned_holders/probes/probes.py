"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Solve, SolvePlain, SolveUnchecked  # noqa: E402


def probe_solve():
    return Solve(), (torch.randn(4),)


def probe_solve_plain():
    return SolvePlain(), (torch.randn(4),)


def probe_solve_unchecked():
    return SolveUnchecked(), (torch.randn(4),)
