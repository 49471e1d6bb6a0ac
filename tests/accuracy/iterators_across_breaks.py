"""A `filter`, `map` or `zip` object made before a graph break and iterated after it: Dynamo
cannot iterate it in the resumed frame and breaks again there. Not once it is a tuple before
the break, nor an iterator made after it, nor `iter(...)` of a list."""

import torch
from torch import nn


def total(x, *terms):
    return x + sum(terms)


class Trainable(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))
        self.shift = torch.zeros(4)


class Filtered(Trainable):
    def forward(self, x):
        trainable = filter(lambda t: t.requires_grad, (self.scale, self.shift))
        print("terms")  # BREAK BL401
        return total(x, *trainable)  # BREAK BL212


class Mapped(Trainable):
    def forward(self, x):
        doubled = map(lambda t: t * 2, (self.scale, self.shift))
        print("terms")  # BREAK BL401
        for term in doubled:  # BREAK BL212
            x = x + term
        return x


class Zipped(Trainable):
    def forward(self, x):
        pairs = zip((self.scale, self.shift), (x, x))
        print("terms")  # BREAK BL401
        return total(x, *[a * b for a, b in pairs])  # BREAK BL212


class Tupled(Trainable):
    def forward(self, x):
        trainable = tuple(filter(lambda t: t.requires_grad, (self.scale, self.shift)))
        print("terms")  # BREAK BL401
        return total(x, *trainable)


class MadeAfter(Trainable):
    def forward(self, x):
        print("terms")  # BREAK BL401
        trainable = filter(lambda t: t.requires_grad, (self.scale, self.shift))
        return total(x, *trainable)


class Stepped(Trainable):
    def forward(self, x):
        terms = iter([self.scale, self.shift])
        print("terms")  # BREAK BL401
        return total(x, *terms)


compiled = [torch.compile(m()) for m in (Filtered, Mapped, Zipped, Tupled, MadeAfter, Stepped)]


def probe_filtered():
    return Filtered(), (torch.randn(4),)


def probe_mapped():
    return Mapped(), (torch.randn(4),)


def probe_zipped():
    return Zipped(), (torch.randn(4),)


def probe_tupled():
    return Tupled(), (torch.randn(4),)


def probe_made_after():
    return MadeAfter(), (torch.randn(4),)


def probe_stepped():
    return Stepped(), (torch.randn(4),)
