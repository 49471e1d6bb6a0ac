class Solver:
    def __init__(self, sde, bm, dt, **kwargs):
        self.sde = sde
        self.bm = bm
        self.dt = dt

    def advance(self, y, t0, t1):
        return self.step(y, t0, t1)

    def step(self, y, t0, t1):
        raise NotImplementedError
