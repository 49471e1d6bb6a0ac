import torch
from torch import nn


class Encoder(nn.Module):
    def forward(self, x: torch.Tensor):
        return x * 2


class Codec(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, x: torch.Tensor):
        return self.encoder(x)

    def encode(self, x: torch.Tensor):
        print("encode")  # torch.compile(codec.encode) in train.py
        return self.encoder(x)

    def decode(self, x: torch.Tensor):
        print("decode")  # compiled only by a probe: `Codec().eval().decode`
        return x / 2
