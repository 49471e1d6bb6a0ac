"""Compile roots named anywhere in the tree, resolved across files: a function passed to
`torch.compile`, a compiler applied (`torch._dynamo.optimize(...)(f)`), a decorator called
with options, and a method of a local instance."""

import torch

from lib.codec import Codec
from lib.ops import center, scale, shift

fast_scale = torch.compile(scale)
fast_shift = torch._dynamo.optimize("eager")(shift)


@torch.compile(fullgraph=False)
def step(x):
    return center(x)


def main():
    codec = Codec()
    encode = torch.compile(codec.encode)
    return encode(step(fast_shift(fast_scale(torch.randn(4)))))
