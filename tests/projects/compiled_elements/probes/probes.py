"""Compile roots made in comprehensions: each function a literal and a module-level dict hold,
compiled, and a function none compiles."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import by_name, fast  # noqa: E402

X = torch.randn(4)


def probe_scale():
    return fast[0], (X,)


def probe_shift():
    return fast[1], (X,)


def probe_clip():
    return by_name["clip"], (X,)


def probe_centre():
    return by_name["centre"], (X,)
