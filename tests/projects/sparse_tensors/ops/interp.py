import torch

from ops.products import dsmm


def spread(values):
    index = torch.tensor([[0, 1, 2], [1, 2, 0]])
    weights = torch.ones(3, dtype=values.dtype)
    summing = torch.sparse_coo_tensor(index, weights, (3, 3))
    values = values.reshape(3, -1)
    res = dsmm(summing, values)
    return res.view(-1)
