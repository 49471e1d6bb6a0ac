import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solvers.implicit import Recurrent, Remembering, called_inside, with_adjoint_hook  # noqa: E402


def probe_recurrent():
    return Recurrent(), (torch.randn(2, 3),)


def probe_remembered():
    return Remembering(), (torch.randn(2, 3),)


def probe_adjoint_hook():
    return with_adjoint_hook, (nn.Linear(3, 3), torch.randn(2, 3))


def probe_called_inside():
    return called_inside, (nn.Linear(3, 3), torch.randn(2, 3))
