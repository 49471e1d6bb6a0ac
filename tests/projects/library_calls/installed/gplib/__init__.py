from .kernels import ScaleKernel
from .utils.linalg import jitter, safe_cholesky
