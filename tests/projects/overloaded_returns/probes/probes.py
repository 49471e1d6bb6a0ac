"""Methods of what a function returns, known from its return annotations: the `@overload`
stubs of a function that a decorator written as a call replaces (`-> Recorder`,
`-> RecordedCall[torch.Tensor]`, a generic class), and an `Optional[Sampler]`."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import recorded, sampled  # noqa: E402

X = torch.randn(4, 3)


def probe_recorded():
    return recorded, (X,)


def probe_sampled():
    return sampled, (X.abs(),)
