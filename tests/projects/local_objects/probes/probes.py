"""The models the static findings are confirmed on under Dynamo."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import Checker, Integrator, Shared  # noqa: E402


def probe_integrator():
    return Integrator(), (torch.rand(3), torch.tensor([0.0, 1.0]))


def probe_checker():
    return Checker(), (torch.rand(3), torch.tensor([0.0, 1.0]))


def probe_shared():
    return Shared(), (torch.rand(3), torch.tensor([0.0, 1.0]))
