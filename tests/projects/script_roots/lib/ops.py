from .spline import *
from .utils import norm


def project(x):
    return norm(fit(x))
