import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self, factor: float):
        super(Scale, self).__init__()
        self.factor = factor


class Stepped(Scale):
    def __init__(self, factor: float):
        super(Stepped, self).__init__(factor)
        self.step = self.halve

    def halve(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.factor / 2


class Measured(nn.Module):
    def __init__(self, x: torch.Tensor):
        super().__init__()
        self.peak = x.abs().max().item()


class Counter:
    def __init__(self, start: int):
        self.count = start


class Offset(nn.Module):
    def __init__(self, shift: float):
        super().__init__()
        self.shift = shift
