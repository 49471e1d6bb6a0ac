import torch
from utils import norm, scale  # train/utils.py: this script's folder is sys.path[0]


class Trainer(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return norm(x) + scale(x, x.sum())
