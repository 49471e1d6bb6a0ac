import torch


def all_positive(x, ys: tuple[torch.Tensor, ...]):
    y = x + 1
    ok = all(t.sum().item() > 0 for t in ys)
    return y * 2 if ok else y * y.sum().item()
