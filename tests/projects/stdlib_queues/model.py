"""Mechanism 4: standard-library helpers and objects Dynamo 2.13 cannot trace: `bisect` and
`heapq` on plain lists, a queue `__init__` makes (each method locks a `threading.Condition`),
an `Event` it sets, a `Condition` entered (the frame is skipped), and a queue made in the
compiled code, imported by name in a folder that is no package (`steps/`)."""

import bisect
import heapq
import queue
import threading

import torch
from torch import nn

from steps.handoff import drained

EDGES = [0.5, 1.5, 2.5]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pending = queue.Queue()
        self.done = threading.Event()
        self.cond = threading.Condition()

    def forward(self, x: torch.Tensor):
        h = x + 1
        h = h * bisect.bisect_left(EDGES, 2.0)
        sizes = [3, 1, 2]
        heapq.heapify(sizes)
        h = h - sizes[0]
        self.pending.put(2)
        h = h * self.pending.get()
        self.done.set()
        h = self.guarded(h)
        return drained(h)

    def guarded(self, h):
        with self.cond:
            h = h * 2
        return h + 1
