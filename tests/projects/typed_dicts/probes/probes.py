"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Noter, Sender  # noqa: E402


def probe_sender():
    return Sender(), (torch.randn(4),)


def probe_noter():
    return Noter(), (torch.randn(4),)
