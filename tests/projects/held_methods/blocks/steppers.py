from torch import nn


class Stepper:
    def __init__(self, scale: float, method: str = "euler") -> None:
        self.scale = scale
        # a bound method of its own, one of two
        self.step = self.euler if method == "euler" else self.midpoint

    def euler(self, x):
        return x * self.scale

    def midpoint(self, x):
        return x * (self.scale / 2)


class Field(nn.Module):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.drift = self.linear if kind == "linear" else self.zero

    def linear(self, x):
        return x * 2

    def zero(self, x):
        return x * 0


class Shifted(Field):  # the `__init__` it inherits stores them
    def forward(self, x):
        return self.drift(x) + 1


class Settings:  # its attributes hold values: a property read in `__init__` gives one
    def __init__(self, scale: float) -> None:
        self.scale = scale
        self.half = self.halved

    @property
    def halved(self) -> float:
        return self.scale / 2
