from torch import nn


class Prepped(nn.Module):
    def __call__(self, x):
        return super().__call__(self.prepare(x))

    def prepare(self, x):
        return x / float(x.abs().max())

    def forward(self, x):
        return x + 1
