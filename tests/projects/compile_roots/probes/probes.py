"""What these probes return is compiled: `lib.audio.mel` through a builder beside this file,
the method of an instance, a function of a module beside this file, what a lambda calls and
what `functools.partial` wraps, and a function of a module beside this file imported whole."""

import functools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import local_ops  # noqa: E402
from builders import build_mel  # noqa: E402
from lib import audio  # noqa: E402
from lib.codec import Codec  # noqa: E402
from local_ops import wobble  # noqa: E402


def probe_mel():
    built = build_mel()
    return built


def probe_decode():
    model = Codec()
    model = model.eval()
    return model.decode, (torch.randn(4),)


def probe_wobble():
    return wobble, (torch.randn(4),)


def probe_ripple():
    return local_ops.ripple, (torch.randn(4),)


def probe_spectrum():
    return lambda x: audio.spectrum(x, 2), (torch.randn(4),)


def probe_window():
    return functools.partial(audio.window, size=2), (torch.randn(4),)
