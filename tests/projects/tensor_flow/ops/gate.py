from torch import nn


class Gate(nn.Module):
    def __init__(self, floor):
        super().__init__()
        self.floor = floor

    def forward(self, h):
        if self.floor > 0:  # what the constructor's caller passed: a tensor
            return h.clamp(min=0)
        return h
