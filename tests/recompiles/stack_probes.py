import torch
from stack import Net


def probe_net():
    return Net(), (torch.randn(2, 4),)
