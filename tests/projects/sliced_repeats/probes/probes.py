"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Aggregate  # noqa: E402


def probe_aggregate():
    return Aggregate(), (torch.randn(6, 2),)
