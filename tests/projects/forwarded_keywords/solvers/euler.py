from solvers.base import Solver


class Euler(Solver):
    def __init__(self, sde, **kwargs):
        super().__init__(sde=sde, **kwargs)

    def step(self, y, t0, t1):
        return y + self.sde.f(y) * self.dt + self.bm(t0, t1)
