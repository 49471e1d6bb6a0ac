class Schedule:
    def __init__(self, steps):
        self.step = 1.0 / steps


def predicted(x, predictor, sde):
    stepper = predictor(sde)
    return stepper.update(x)


class Sampler:
    def __init__(self, corrector_class, steps):
        self.corrector_class = corrector_class
        self.sde = Schedule(steps)

    def run(self, x):
        return self.corrector_class(self.sde).update(x)
