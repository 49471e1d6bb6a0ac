import numpy as np
import torch


def warped(h):
    grid = np.interp(np.linspace(0.0, 1.0, 4), np.array([0.0, 1.0]), np.array([0.0, 2.0]))
    total = grid.sum()
    return h * torch.from_numpy(grid).float() + total
