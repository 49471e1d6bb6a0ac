import torch
from torch import nn


class Normalizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)
        self.gate = nn.Linear(16, 16)

    def forward(self, x):
        scale = x.abs().mean().item()
        h = self.proj(x) / (scale + 1e-6)
        print("scale", scale)
        if self.gate(h).mean() > 0:
            out = h * 2
        else:
            out = self.gate(h)
        return out


compiled = torch.compile(Normalizer())
