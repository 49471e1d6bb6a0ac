"""geomloss (optimal transport and kernel losses between point clouds), on random point clouds
and weights from `torch.rand`/`torch.randn` (nothing is downloaded; the PyTorch backends only,
no KeOps). The `SamplesLoss` module with each loss on the tensorized backend: the debiased
Sinkhorn divergence (its epsilon-scaling schedule, uniform and given weights, batches,
unbalanced transport with a reach, the transport potentials), energy, Gaussian and
Laplacian kernel distances; and the newer
`geomloss.ot` solvers on samples and on a cost matrix."""

import torch
from geomloss import SamplesLoss, ot

PACKAGES = ("geomloss",)
MODES = ("eval",)

_POINTS = 16
_DIM = 2


def _clouds(batch: int = 0):
    shape = (batch, _POINTS, _DIM) if batch else (_POINTS, _DIM)
    return torch.randn(*shape), torch.randn(*shape) + 0.5


def _weights(batch: int = 0):
    shape = (batch, _POINTS) if batch else (_POINTS,)
    a, b = torch.rand(*shape) + 0.1, torch.rand(*shape) + 0.1
    return a / a.sum(-1, keepdim=True), b / b.sum(-1, keepdim=True)


def build_sinkhorn():
    return SamplesLoss("sinkhorn", p=2, blur=0.1, backend="tensorized"), _clouds()


def build_sinkhorn_weighted_batch():
    x, y = _clouds(2)
    a, b = _weights(2)
    loss = SamplesLoss("sinkhorn", p=2, blur=0.1, scaling=0.5, backend="tensorized")
    return loss, (a, x, b, y)


def build_sinkhorn_unbalanced_p1():
    loss = SamplesLoss("sinkhorn", p=1, blur=0.1, reach=1.0, debias=False, backend="tensorized")
    return loss, _clouds()


def build_sinkhorn_potentials():
    loss = SamplesLoss("sinkhorn", p=2, blur=0.1, potentials=True, backend="tensorized")
    return loss, _clouds()


def build_energy():
    return SamplesLoss("energy", backend="tensorized"), _clouds(2)


def build_gaussian():
    return SamplesLoss("gaussian", blur=0.5, backend="tensorized"), _clouds()


def build_laplacian():
    x, y = _clouds()
    a, b = _weights()
    return SamplesLoss("laplacian", blur=0.5, backend="tensorized"), (a, x, b, y)


def build_ot_solve_sample():
    x, y = _clouds()
    return ot.solve_sample, (x, y), {"reg": 0.1, "max_iter": 10}


def build_ot_solve_matrix():
    x, y = _clouds()
    return ot.solve, (torch.cdist(x, y) ** 2,), {"reg": 0.1, "max_iter": 10}
