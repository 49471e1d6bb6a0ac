from registry.meta import Labelled, Registered


class Step(metaclass=Registered):
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return x * self.scale


class NoisyStep(Step):
    def __init__(self, scale):
        print("noisy step", scale)
        super().__init__(scale)


class Shift(metaclass=Labelled):
    def __init__(self, shift):
        self.shift = shift
