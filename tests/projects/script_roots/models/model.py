import torch


def head(x):
    if x.sum() > 0:
        return x
    return -x


class Block(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return x * x.sum().item()
