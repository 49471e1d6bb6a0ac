import keyword
import warnings

import torch


def jitter(a, name="jitter"):
    if keyword.iskeyword(name):
        warnings.warn(f"a name that is a keyword: {name}")
    return a + 1e-4 * torch.eye(a.shape[-1])


def safe_cholesky(a):
    factor, info = torch.linalg.cholesky_ex(a)
    if info.any():
        factor, info = torch.linalg.cholesky_ex(jitter(a))
    return factor
