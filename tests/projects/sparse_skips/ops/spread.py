import torch


def spread(x, index):
    weights = torch.sparse_coo_tensor(index, torch.ones(2), (2, 2))
    y = torch.sparse.mm(weights, x)
    print("spread", y.shape)
    return y


def blocks(sparse, dense):
    if sparse.ndimension() > 2:
        dense = dense * 2
    print("blocks", dense.shape)
    rows = sparse._indices()[0]
    return dense[rows]
