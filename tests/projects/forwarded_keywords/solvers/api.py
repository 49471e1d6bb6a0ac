from noise import Brownian
from solvers.euler import Euler


def checked(sde, y, bm=None):
    if bm is None:
        bm = Brownian(y.shape)
    return sde, y, bm


def solve(sde, y, ts, bm=None):
    sde, y, bm = checked(sde, y, bm)
    solver = Euler(sde=sde, bm=bm, dt=0.1)
    return solver.advance(y, ts[0], ts[1])
