import torch


def bdsmm(sparse, dense):
    dense = dense.contiguous()
    if sparse.dim() > 2:
        raise ValueError("batched sparse matrices are not supported")
    if sparse._nnz() == 0:
        return dense.new_zeros(sparse.shape[0], dense.shape[1])
    return torch.sparse.mm(sparse, dense)
