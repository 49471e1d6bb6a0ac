from typing import Optional

import torch
from torch import nn


class Attention(nn.Module):
    def forward(
        self,
        x: torch.Tensor,
        cache: dict[str, torch.Tensor] | None = None,
        gate: Optional[torch.Tensor] = None,
    ):
        cache = cache or {}
        if gate:
            x = x * gate
        keys = cache.get("keys")
        if keys is not None:
            x = torch.cat([keys, x])
        return self.split(x, 2)[0]

    def split(self, x: torch.Tensor, parts: int):
        return x.chunk(parts)
