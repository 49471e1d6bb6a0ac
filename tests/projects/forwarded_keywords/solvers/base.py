class Solver:
    def __init__(self, sde, bm, dt, **kwargs):
        self.sde = sde
        self.bm = bm
        self.dt = dt

    def advance(self, y, t0, t1):
        return y + self.sde.f(y) * self.dt + self.bm(t0, t1)
