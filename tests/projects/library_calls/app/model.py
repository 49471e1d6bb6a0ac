import torch
from gplib import jitter
from gplib.utils.linalg import safe_cholesky as cholesky

import gplib


class Regressor(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.covar = gplib.ScaleKernel()

    def forward(self, x):
        covar = self.covar(x)
        covar = jitter(covar)
        return cholesky(covar)
