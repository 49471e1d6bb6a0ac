import torch


class Predictor:
    def __init__(self, sde):
        self.sde = sde

    def update(self, x):
        return x


class Euler(Predictor):
    def update(self, x):
        return x - float(x.mean()) * self.sde.step


class Langevin(Predictor):
    def update(self, x):
        noise = torch.randn_like(x)
        if noise.std() > 2:
            return x
        return x + noise * self.sde.step


class Heun(Predictor):
    def update(self, x):
        return x * x.norm().item()
