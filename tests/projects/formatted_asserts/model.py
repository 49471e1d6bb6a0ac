"""Mechanism 4: an `assert` on a tensor's value whose message is made at run time (an
f-string, a `%` format): Dynamo 2.13 traces an assert into the graph (`torch._assert_async`)
only when the raise that follows its jump has no message or a constant one, so these break
("Data-dependent branching"), in a loop skipping the frame; the same test with a constant
message, and a formatted message on a shape test, do not. The checks live in a helper module
of a folder that is no package (`checks/`)."""

import torch
from torch import nn

from checks.inputs import finite, positive, validate


class Distance(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        validate([x, y])
        finite(x)
        positive(y + 1, "y")
        return (x - y).abs().mean()
