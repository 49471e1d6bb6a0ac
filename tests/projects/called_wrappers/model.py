"""Mechanism 3: a module-level name bound to what a project function returns
(`_scale = effectful(_scaled, kind="scale")`, the function declared with typing's `@overload`
stubs first): calling the name runs the wrapper the function defines and returns, here one
that makes a TypedDict with optional keys, where Dynamo 2.13 breaks. Not the wrapper another
module-level name holds that only code outside the compiled model calls."""

import torch
from torch import nn

from effects.primitives import scale, show


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x + 1
        return scale(h) - 1


def main():
    return show(torch.ones(2))
