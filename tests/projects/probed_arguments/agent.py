import torch


class Agent:
    def __init__(self, interval):
        self.weight = torch.ones(4)
        self.interval = interval

    def update(self, memory, batch_size, updates):
        batch = memory.sample(batch_size)
        out = self.weight * batch
        if updates % self.interval == 0:  # `updates`: the probe's Python int
            out = out * 2
        return out
