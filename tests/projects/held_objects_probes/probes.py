"""A probe outside the linted tree: its builder passes the object the compiled code holds."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "held_objects"))

from builders import build_pipeline  # noqa: E402


def probe_pipeline():
    return build_pipeline(), (torch.randn(4),)
