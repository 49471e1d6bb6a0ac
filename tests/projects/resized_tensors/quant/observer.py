import torch
from torch import nn


class Observer(nn.Module):
    """Keeps the scale of what it saw in a buffer sized like the statistic."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("scale", torch.ones(1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s = x.detach().abs().amax(dim=0) / 127
        self.scale.resize_(s.shape).copy_(s)
        return x / self.scale


def padded_like(x: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    y = torch.zeros(0)
    y.resize_as_(other)
    return y.zero_() + x.sum()


def resized(image: "Image", size: tuple[int, int]) -> "Image":
    return image.resize(size)  # a method of another object, no tensor's


class Image:
    def __init__(self, pixels: list[int]) -> None:
        self.pixels = pixels

    def resize(self, size: tuple[int, int]) -> "Image":
        return Image(self.pixels[: size[0] * size[1]])
