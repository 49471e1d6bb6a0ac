class Gaussian:
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale**2
