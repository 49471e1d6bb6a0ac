import torch
from torch import Tensor, nn


class Shift(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("ready", torch.tensor(0.0))

    def inverse(self, z: Tensor):
        if not self.ready:
            self.ready.fill_(1.0)
        return z - 1


class Scale(nn.Module):
    def step(self, z: Tensor):
        return z / z.abs().max().item()


class Unused(nn.Module):
    def inverse(self, z: Tensor):  # no caller puts one in a flow
        return z / z.abs().max().item()


class Halve(nn.Module):
    def step(self, z: Tensor):  # put in a list with `append`
        return z / 2 + z.abs().max().item()
