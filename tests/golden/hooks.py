import torch
from torch import nn


def log_activation(module, inputs, output):
    print(type(module).__name__, output.mean().item())


def clip_grad(grad):
    return grad.clamp(-1, 1)


class Block(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.proj.register_forward_hook(log_activation)
        self.proj.weight.register_hook(clip_grad)

    def forward(self, x):
        return self.proj(x).relu()
