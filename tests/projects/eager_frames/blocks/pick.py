import torch


def pick(x: torch.Tensor, order: list):
    parts = [x, x + 1]
    names = ["a", "b"]
    early = [parts[i] for i in sorted(order)]
    labels = [names[i] for i in order]  # reads no tensor: its frame is left alone
    for _ in range(2):
        x = x + int(x.sum())
    late = [parts[i] * 2 for i in range(2)]  # a range iterator Dynamo can step
    return early[0] * x + late[0], labels
