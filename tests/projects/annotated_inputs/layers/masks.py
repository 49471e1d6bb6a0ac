import torch


def padded(x: torch.Tensor, sizes: torch.Tensor) -> torch.Tensor:
    mask = torch.zeros(x.shape, dtype=torch.bool)
    for i in range(x.shape[0]):
        mask[i, : sizes[i]] = True
    return x * mask


def narrowed(x: torch.Tensor, sizes: torch.Tensor) -> torch.Tensor:
    return trimmed(x, sizes).sum()


def trimmed(x, sizes):
    return x[:, : sizes[0]]
