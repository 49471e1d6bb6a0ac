import torch


@torch.compile
def padded(seq, max_length):
    if seq.shape[1] - 1 < max_length:  # a count: `max_length` is compared with a size
        seq = torch.nn.functional.pad(seq, (0, max_length - seq.shape[1]))
    return seq


@torch.compile
def kept(points, scores, n):
    if len(points) > n:
        points = points[scores.topk(n).indices]
    return points


@torch.compile
def budget_left(x, budget):
    if x.numel() > budget.sum():  # a certain tensor: the sum of what the caller passes
        return x[:1]
    return x
