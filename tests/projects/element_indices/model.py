"""Mechanism 4: a 0-dim tensor where indexing needs a Python int, known from its making: an
element of a tensor of one dimension (`torch.unique`'s values and counts, what keeps their
shape, `torch.randperm`) in a helper module of a folder that is no package (`metrics/`); and
a store through a mask into a 0-dim tensor (`s = x.sum(); s[s == 0] = 0.0`). Dynamo 2.13
reads the value ("Data dependent operator") whatever the capture knobs."""

import torch
from torch import nn

from metrics.ranking import tied_gain
from metrics.scores import floored


class Model(nn.Module):
    def forward(self, preds: torch.Tensor, target: torch.Tensor, table: torch.Tensor):
        h = tied_gain(preds, target, table)
        return floored(h * 2, preds)
