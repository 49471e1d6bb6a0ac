"""In-place resizing of a buffer (an observer's statistic) and of a local: Dynamo does not
trace `resize_` or `resize_as_`."""

import torch
from torch import nn

from quant.observer import Image, Observer, padded_like, resized


class Quantized(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.observer = Observer()
        self.image = Image([1, 2, 3, 4])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        small = resized(self.image, (1, 2))
        return padded_like(self.observer(x), x) * len(small.pixels)


compiled = torch.compile(Quantized())
