import torch


def minibatch_std(x: torch.Tensor, group_size: int) -> torch.Tensor:
    n = x.shape[0]
    g = torch.min(torch.as_tensor(group_size), torch.as_tensor(n)) if group_size else n
    y = x.reshape(g, -1, *x.shape[1:])
    y = (y - y.mean(0)).square().mean(0).add(1e-8).sqrt().mean([1, 2], keepdim=True)
    return torch.cat([x, y.repeat(g, 1, x.shape[2])], 1)


def widened(x: torch.Tensor) -> torch.Tensor:
    width = torch.max(torch.as_tensor(x.shape[-1]), torch.as_tensor(2)) * 2
    return torch.cat([x, x.new_zeros(x.shape[0], x.shape[1], width)], -1)


def counted(x: torch.Tensor) -> torch.Tensor:
    n = torch.tensor(x.shape[0])
    return x * int(n)


def padded(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    return torch.cat([x, torch.zeros(x.shape[0], x.shape[1], lengths.max())], -1)
