"""Each registry's classes made under Dynamo: a solver made in the compiled call (skipped
frame) and one a factory hands back (no skip)."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import Solve, SolveMade  # noqa: E402

ARGS = (torch.randn(4), torch.linspace(0, 1, 4))


def probe_euler():
    return Solve("euler"), ARGS


def probe_adaptive():
    return Solve("adaptive"), ARGS


def probe_shared():
    return SolveMade("shared"), ARGS
