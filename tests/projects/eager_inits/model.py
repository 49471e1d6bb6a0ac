"""An `nn.Module` made where it runs eagerly: Dynamo compiles its `__init__` as a frame of its
own and skips it ("Uninitialized nn.Module"), along each `__init__` `super().__init__()`
reaches; not a module made in traced code (before a break that splits a frame skipped
later), nor an object that is no module."""

import torch
from torch import nn

from layers.prepare import offset_steps, prepare
from layers.scales import Measured, Scale


class Prepared(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return prepare(x) + 1


class Normalised(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        measured = Measured(x)
        return x / measured.peak


class Scaled(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * Scale(3.0).factor


class Offsets(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return offset_steps(x)
