from typing import Optional, Union

import torch
from torch import Tensor


def top_k(x: Tensor, ratio: Optional[Union[float, int]]) -> Tensor:
    if ratio >= 1:
        k = int(ratio)
    else:
        k = max(1, int(float(ratio) * x.size(0)))
    return x.topk(k, dim=0).values


def scaled(x: Tensor, scale: float) -> Tensor:
    if scale > 1:
        return x * scale
    return x


class Select(torch.nn.Module):
    def __init__(self, ratio: Union[int, float] = 0.5):
        super().__init__()
        self.ratio = ratio

    def forward(self, x):
        return top_k(x, self.ratio)
