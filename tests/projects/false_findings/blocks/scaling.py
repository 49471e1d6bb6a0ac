import torch

Amount = int | torch.Tensor


def scaled(x: torch.Tensor, factor: int | torch.Tensor):
    return x * int(factor)


def shifted(x: torch.Tensor, amount: Amount):
    return x + int(amount)
