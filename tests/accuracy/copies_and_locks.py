"""Shallow copies and threading objects under Dynamo: `copy.copy` of a dict, a tensor or a
module and a lock made and entered in compiled code break; `dict(d)` traces."""

import copy
import threading

import torch
from torch import nn


class Settings:
    def __init__(self) -> None:
        self.scale = 2.0


def with_options(x, options: dict):
    options = copy.copy(options)  # BREAK BL501
    options["scale"] = 2.0
    kept = dict(options)
    return x * kept["scale"]


def snapshot(x):
    y = x * 2
    saved = copy.copy(y)  # BREAK BL501
    return y + saved


class Scaled(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.settings = Settings()

    def forward(self, x):
        same = copy.copy(self)  # BREAK BL501
        return x * same.settings.scale


def guarded(x):
    y = x + 1
    lock = threading.Lock()  # BREAK BL501
    with lock:  # BREAK BL507
        y = y * 2
    return y - 1


compiled_with_options = torch.compile(with_options)
compiled_snapshot = torch.compile(snapshot)
compiled_guarded = torch.compile(guarded)


def probe_copied_options():
    return with_options, (torch.randn(4), {"scale": 1.0})


def probe_copied_tensor():
    return snapshot, (torch.randn(4),)


def probe_copied_objects():
    return Scaled(), (torch.randn(4),)


def probe_lock():
    return guarded, (torch.randn(4),)
