import torch


class Euler:
    def __init__(self, steps):
        self.sigmas = torch.linspace(1.0, 0.0, steps + 1)

    def step(self, sample, i):
        sigma = self.sigmas[i]
        if sigma > 0.5:
            return sample * (1 - sigma)
        return sample


def clipped(sample):
    return sample[: int(sample.abs().argmax())]
