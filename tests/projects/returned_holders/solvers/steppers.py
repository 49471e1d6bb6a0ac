class Stepper:
    def __init__(self, scale, kind):
        self.scale = scale
        if kind == "euler":
            self.step = self.euler
        else:
            self.step = self.midpoint

    def euler(self, x):
        return x + self.scale * x

    def midpoint(self, x):
        return x + self.scale * (x + 0.5 * self.scale * x)


class Plain:
    def __init__(self, scale):
        self.scale = scale

    def step(self, x):
        return x * self.scale
