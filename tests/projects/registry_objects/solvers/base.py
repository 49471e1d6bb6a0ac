class FixedGrid:
    def __init__(self, func, y0):
        self.func = func
        self.y0 = y0

    def integrate(self, t):
        y = self.y0
        for t0, t1 in zip(t[:-1], t[1:]):
            y = y + self.step(t0, t1 - t0, y)
        assert y.isfinite().all() and t[-1] > t[0]
        return y
