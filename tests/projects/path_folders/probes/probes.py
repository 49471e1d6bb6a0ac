"""Run as the repository's scripts run: src/model and src/tools put on `sys.path`, whose
modules import each other by bare names although both folders are packages."""

import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "src", "model"), os.path.join(ROOT, "src", "tools")]
from model import run  # noqa: E402  (src/model/model.py, not the package src/model)


def probe_run():
    return run, (torch.ones(3),)
