"""Sparse tensors, which Dynamo cannot wrap: each frame one reaches is skipped at its first
read, the one that made it too (after the break the making is); storing one (in a list,
`ctx.save_for_backward`) is no read. A dense tensor in its place traces."""

import torch


def _gather(matrix, x):
    rows = x.shape[0]
    return torch.sparse.mm(matrix, x)[:rows]  # BREAK BL512


def pooled(x):
    index = torch.tensor([[0, 1, 2], [2, 0, 1]])
    pooling = torch.sparse_coo_tensor(index, torch.ones(3), (3, 3))  # BREAK BL509
    h = x.relu()
    out = _gather(pooling, h)  # BREAK BL512
    return out * 2


def densified(x: torch.Tensor):
    pooling = x.to_sparse()  # BREAK BL509
    h = x + 1
    return _gather(pooling, h)  # BREAK BL512


class SparseProduct(torch.autograd.Function):
    @staticmethod
    def forward(ctx, matrix, x):
        ctx.save_for_backward(matrix, x)
        y = x * 2
        return torch.sparse.mm(matrix, y)  # BREAK BL512

    @staticmethod
    def backward(ctx, grad):
        matrix, _ = ctx.saved_tensors
        return None, torch.sparse.mm(matrix.t(), grad) * 2


def product(x):
    index = torch.tensor([[0, 1, 2], [2, 0, 1]])
    matrix = torch.sparse_coo_tensor(index, torch.ones(3), (3, 3))  # BREAK BL509
    kept = [matrix, x]
    h = kept[1].relu()
    return SparseProduct.apply(matrix, h)  # BREAK BL512


def dense(x):
    index = torch.tensor([[0, 1, 2], [2, 0, 1]])
    pooling = torch.zeros(3, 3).index_put((index[0], index[1]), torch.ones(3))
    return pooling @ x.relu()


compiled_pooled = torch.compile(pooled)
compiled_densified = torch.compile(densified)
compiled_product = torch.compile(product)
compiled_dense = torch.compile(dense)


def probe_pooled():
    return pooled, (torch.randn(3, 4),)


def probe_densified():
    return densified, (torch.randn(3, 3),)


def probe_product():
    return product, (torch.randn(3, 4),)


def probe_dense():
    return dense, (torch.randn(3, 4),)
