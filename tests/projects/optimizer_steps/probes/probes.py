"""The training steps the static findings are confirmed on under Dynamo."""

import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from training.loop import Trainer, sgd_step  # noqa: E402


def probe_trainer():
    return Trainer(nn.Linear(4, 2)).train_step, (torch.randn(3, 4), torch.randn(3, 2))


def probe_module_level():
    return sgd_step, (torch.randn(3, 4), torch.randn(3, 2))
