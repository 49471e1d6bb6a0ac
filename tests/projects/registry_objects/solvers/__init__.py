from .adaptive import Adaptive
from .fixed import Euler, Midpoint

SOLVERS = {"euler": Euler, "midpoint": Midpoint, "adaptive": Adaptive}
