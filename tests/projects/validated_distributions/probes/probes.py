"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from model import Actions, Checked, Quiet, Unchecked  # noqa: E402


def probe_checked():
    return Checked(), (torch.randn(4),)


def probe_unchecked():
    return Unchecked(), (torch.randn(4),)


def probe_actions():
    return Actions(), (torch.randn(4),)


def probe_quiet():
    return Quiet(), (torch.randn(4),)
