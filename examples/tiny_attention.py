"""A small attention block with real graph breaks, for trying breaklint out."""

import torch
from torch import nn


class TinyAttention(nn.Module):
    def __init__(self, dim: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.temperature = nn.Parameter(torch.ones(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, dim = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(batch, tokens, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scale = (dim // self.heads) ** -0.5 / self.temperature.item()
        weights = (q @ k.transpose(-2, -1) * scale).softmax(dim=-1)
        return self.out((weights @ v).transpose(1, 2).reshape(batch, tokens, dim))


def train_step(model: nn.Module, batch: torch.Tensor) -> float:
    loss = model(batch).pow(2).mean()
    loss.backward()
    return loss.item()  # not compiled: breaklint stays quiet here
