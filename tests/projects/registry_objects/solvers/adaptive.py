class Adaptive:
    def __init__(self, func, y0):
        self.func = func
        self.y0 = y0

    def integrate(self, t):
        y, now, h = self.y0, t[0], (t[-1] - t[0]) / 4
        while now < t[-1]:
            y = y + h * self.func(now, y)
            now = now + h
        return y
