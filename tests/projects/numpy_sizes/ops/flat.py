import numpy as np
import torch


def flattened(x):
    return x.view(x.shape[0], np.prod(x.shape[1:]))


def regrouped(x):
    batch, *rest = x.shape
    groups = torch.zeros(np.prod(rest))
    return x.reshape(batch, -1) + groups


def tiled(x):
    batch, height, width = x.shape
    return x.reshape(batch, np.prod([height, width]))


def scaled(x):
    return x * np.sqrt(x.shape[1])  # a float numpy folds: traced
