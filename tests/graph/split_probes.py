"""A submodule whose forward breaks in the middle: its nodes land in two graphs."""

import torch


class Block(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        print("between")
        return y + 1


class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        x = x - 1
        return self.block(x) * 3


def probe_split():
    return Outer(), (torch.ones(2),)
