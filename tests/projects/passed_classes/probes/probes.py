"""Classes passed as values: a predictor class passed to a function that makes an instance
and calls its method (also bound by `functools.partial`), and a corrector class stored on an
attribute by a constructor."""

import functools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from run import build, corrected, sample  # noqa: E402
from sampling.predictors import Heun  # noqa: E402
from sampling.steps import Schedule, predicted  # noqa: E402

X = torch.randn(2, 3)


def probe_sample():
    return sample, (X,)


def probe_corrected():
    return corrected, (build(4), X)


def probe_heun():
    return functools.partial(predicted, predictor=Heun), (X,), {"sde": Schedule(4)}
