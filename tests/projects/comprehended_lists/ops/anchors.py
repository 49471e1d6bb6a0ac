import torch


def grid_sizes(size):
    # a list of tensors, one per level, and an element of it read into an int
    sizes = [(size / 2 ** (i + 1)).ceil() for i in range(2)]
    total = 0
    for i in range(2):
        level = sizes[i]
        total += int(level[0])
    # a list of numbers: no finding
    widths = [int(s) for s in (8, 4)]
    return torch.tensor(float(total + widths[0]))
