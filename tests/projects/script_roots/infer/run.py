import torch
from utils import norm, scale  # infer/utils.py, not train's


class Predictor(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return scale(norm(x), x.sum().long())
