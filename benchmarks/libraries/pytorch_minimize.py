"""pytorch-minimize (torchmin: Newton and quasi-Newton optimisation in PyTorch), on small test
functions of a random starting point (nothing is downloaded). `minimize` with each unconstrained
method, a few iterations each (BFGS, L-BFGS, conjugate gradient, Newton-CG, exact Newton,
dogleg, trust-region Newton-CG and exact trust region, Krylov trust region left out: it needs
scipy), the least-squares solver (trust-region reflective, its LSMR and exact subproblem solvers;
bounds are not supported by this version, constrained minimisation needs scipy)."""

import torch
from torchmin import least_squares, minimize
from torchmin.benchmarks import rosen

PACKAGES = ("torchmin",)
MODES = ("eval",)

_DIM = 4


def _start() -> torch.Tensor:
    return torch.randn(_DIM, dtype=torch.float64)


def _quadratic(x: torch.Tensor) -> torch.Tensor:
    return (x - 1.0).square().sum() + 0.1 * x.pow(4).sum()


def _residuals(x: torch.Tensor) -> torch.Tensor:
    return torch.stack([x[0] - 1.0, 10.0 * (x[1] - x[0] ** 2), x[2] * x[3] - 0.5])


def build_bfgs():
    return minimize, (rosen, _start()), {"method": "bfgs", "max_iter": 3}


def build_lbfgs():
    return minimize, (rosen, _start()), {"method": "l-bfgs", "max_iter": 3}


def build_conjugate_gradient():
    return minimize, (_quadratic, _start()), {"method": "cg", "max_iter": 3}


def build_newton_cg():
    return minimize, (_quadratic, _start()), {"method": "newton-cg", "max_iter": 3}


def build_newton_exact():
    return minimize, (_quadratic, _start()), {"method": "newton-exact", "max_iter": 3}


def build_dogleg():
    return minimize, (_quadratic, _start()), {"method": "dogleg", "max_iter": 3}


def build_trust_ncg():
    return minimize, (rosen, _start()), {"method": "trust-ncg", "max_iter": 3}


def build_trust_exact():
    return minimize, (_quadratic, _start()), {"method": "trust-exact", "max_iter": 3}


def build_least_squares():
    return least_squares, (_residuals, _start()), {"max_nfev": 3}


def build_least_squares_exact():
    return least_squares, (_residuals, _start()), {"tr_solver": "exact", "max_nfev": 3}
