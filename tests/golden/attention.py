import math

import torch
import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.dropout = dropout

    def forward(self, x, mask=None, use_flash: bool = True):
        batch, length, dim = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(batch, length, self.heads, -1).transpose(1, 2)
        k = k.view(batch, length, self.heads, -1).transpose(1, 2)
        v = v.view(batch, length, self.heads, -1).transpose(1, 2)
        if use_flash and mask is None and x.device.type == "cuda":
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
            if mask is not None:
                scores = scores.masked_fill(mask == 0, float("-inf"))
            if self.training and self.dropout > 0:
                scores = F.dropout(scores, self.dropout)
            weights = scores.softmax(dim=-1)
            if weights.isnan().any():
                weights = torch.nan_to_num(weights)
            out = weights @ v
        out = out.transpose(1, 2).reshape(batch, length, dim)
        assert out.shape[-1] == dim
        return self.out(out)
