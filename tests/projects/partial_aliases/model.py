"""A module-level `functools.partial` of an imported function: a call of it in its module
calls that function, here `warnings.warn`, which Dynamo does not trace."""

import torch
from torch import nn

from utils.prints import deprecated


class Model(nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        deprecated("Model")
        return y + 1
