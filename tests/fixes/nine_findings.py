import copy

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(16)
        self.mlp = nn.Linear(16, 16)
        self.skip = nn.Linear(16, 16)

    def forward(self, x):
        peak = x.abs().max().item()
        spread = float(x.std())
        h = self.norm(x) * (1.0 / (peak + 1e-6)) + spread
        print("peak", peak, "spread", spread)
        saved = copy.deepcopy(x)
        if h.mean() > 0:
            out = self.mlp(h)
        else:
            out = self.skip(h)
        if not torch.isfinite(out).all():
            out = torch.zeros_like(out)
        out = out * (out.abs() <= 3 * x.norm().item())
        if (out.abs() > 1e6).any():
            raise ValueError("the encoder diverged")
        return out + saved * float(x.mean())


compiled = torch.compile(Encoder())
