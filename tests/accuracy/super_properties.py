"""A property extending its base class's through `super()`: Dynamo gets the base's `property`
object, not its value, and skips the getter where the value is used. Reading what the base's
getter reads traces."""

import torch


class Scaled:
    def __init__(self, weight):
        self.weight = weight

    @property
    def factor(self):
        return self.weight.abs()


class Doubled(Scaled):
    @property
    def factor(self):
        return super().factor * 2  # BREAK BL514

    def apply(self, x):
        return x * self.factor


class Tripled(Scaled):
    @property
    def factor(self):
        return self.weight.abs() * 3

    def apply(self, x):
        return x * self.factor


def doubled(x):
    return Doubled(x.sum()).apply(x) + 1


def tripled(x):
    return Tripled(x.sum()).apply(x) + 1


compiled_doubled = torch.compile(doubled)
compiled_tripled = torch.compile(tripled)


def probe_doubled():
    return doubled, (torch.randn(4),)


def probe_tripled():
    return tripled, (torch.randn(4),)
