import argparse
import functools
import os
import sys

import torch

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "core")
)
from raft import RAFT


def _raft(small=True):
    return RAFT(argparse.Namespace(small=small, mixed_precision=False, alternate_corr=False))


def _images():
    return torch.rand(1, 3, 64, 64) * 255, torch.rand(1, 3, 64, 64) * 255


def probe_raft_small_eval():
    return functools.partial(_raft().eval(), iters=2, test_mode=True), _images()


def probe_raft_small_train():
    return functools.partial(_raft(), iters=2), _images()


def probe_raft_eval():
    return functools.partial(_raft(small=False).eval(), iters=2, test_mode=True), _images()
