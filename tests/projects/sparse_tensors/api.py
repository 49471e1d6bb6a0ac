from ops.products import dsmm


def product(sparse_mat, dense_mat):
    """The public entry point: what it is given is the caller's."""
    return dsmm(sparse_mat, dense_mat)
