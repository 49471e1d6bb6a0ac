import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agent import Agent  # noqa: E402
from memory import Memory  # noqa: E402
from ops import shift  # noqa: E402

BATCH = 3


def _memory():
    memory = Memory(8)
    return memory


def probe_update():
    agent = Agent(2)
    return agent.update, (_memory(), BATCH, 2)


def probe_update_again():
    agent = Agent(3)
    return agent.update, (_memory(), BATCH, 4)


def probe_shift_tensor():
    return shift, (torch.randn(4), torch.ones(()))


def probe_shift_number():
    return shift, (torch.randn(4), 2)
