from tqdm.auto import tqdm


class Sampler:
    def __init__(self, steps, progress=True):
        self.steps = steps
        self.progress = progress

    def _iter(self, steps):
        return tqdm(steps, disable=not self.progress)

    def run(self, model, x):
        for i in self._iter(range(self.steps)):
            x = x - 0.1 * model(x, 1.0 - i / self.steps)
        return x
