"""Each script root run as its users run it: its own folder first on `sys.path`, then the
repository's root (`python -m apps.export`). Their modules are imported afresh for each: the
roots each name a `run`, a `utils` or a `model` of their own."""

import importlib
import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _entry(folder, module, name):
    for shared in ("run", "utils", "model", "export"):
        sys.modules.pop(shared, None)
    sys.path[:0] = [os.path.join(ROOT, folder), ROOT]
    try:
        return getattr(importlib.import_module(module), name)()
    finally:
        del sys.path[:2]


def probe_train():
    return _entry("train", "run", "Trainer"), (torch.randn(4, 3),)


def probe_infer():
    return _entry("infer", "run", "Predictor"), (torch.ones(4, 3),)


def probe_apps():
    return _entry("apps", "export", "Exporter"), (torch.randn(4, 3),)
