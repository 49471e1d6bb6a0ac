import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, dim: int, hidden: int, config=None) -> None:
        super().__init__()
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)
        self.config = config
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        h = torch.nn.functional.gelu(self.up(x))
        if self.config is not None and self.config.clamp:
            h = h.clamp(-10, 10)
        if x.dtype == torch.float16:
            h = h.float()
        scale = h.abs().max()
        if scale > 100:
            h = h / scale
        out = self.down(h)
        norm = float(out.norm())
        print(f"mlp output norm {norm:.3f}")
        return out
