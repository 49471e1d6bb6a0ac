"""A compiled function calling methods of the objects its callers pass: a learner's loss
and its check, and a policy chosen by the caller."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents.learner import Learner  # noqa: E402
from agents.policies import Greedy, Sampled  # noqa: E402
from run import choose, update  # noqa: E402

SCORES = torch.randn(2, 3)


def probe_update():
    return update, (Learner(0.2), 1 + 0.01 * torch.rand(4), torch.randn(4))


def probe_greedy():
    return choose, (Greedy(), SCORES)


def probe_sampled():
    return choose, (Sampled(1.0), SCORES)
