"""A graph break while a generator is alive in the frame skips the frame: a helper given
`self.parameters()`, a generator expression or an `enumerate(...)` that breaks inside, or a local
holding one across a break. Not once the generator is consumed, nor a list of it."""

import torch
from torch import nn


def logged(func, inputs, params):
    print("recomputing", len(inputs))  # BREAK BL401
    return func(*inputs)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def inner(self, x):
        return self.proj(x).relu()


class Checkpointed(Block):
    def forward(self, x):
        return logged(self.inner, (x,), self.parameters())  # SKIP BL210


class Filtered(Block):
    def forward(self, x):
        return logged(self.inner, (x,), params=(p for p in self.proj.parameters()))  # SKIP BL210


class Held(Block):
    def forward(self, x):
        named = self.named_parameters()
        y = x * 2
        print("step")  # SKIP BL401 BL210
        return self.inner(y) + len(list(named))


class Counted(Block):
    def forward(self, x):
        numbered = enumerate(self.proj.parameters())
        y = x * 2
        print("step")  # SKIP BL401 BL210
        return self.inner(y) + len(list(numbered))


class Numbered(Block):
    def forward(self, x):
        return logged(self.inner, (x,), enumerate((x, x)))  # SKIP BL210


class Listed(Block):
    def forward(self, x):
        return logged(self.inner, (x,), list(self.parameters()))


class Consumed(Block):
    def forward(self, x):
        named = self.named_parameters()
        count = len(list(named))
        print("step", count)  # BREAK BL401
        return self.inner(x)


compiled = [
    torch.compile(m()) for m in (Checkpointed, Filtered, Held, Counted, Numbered, Listed, Consumed)
]


def probe_checkpointed():
    return Checkpointed(), (torch.randn(2, 4),)


def probe_filtered():
    return Filtered(), (torch.randn(2, 4),)


def probe_held():
    return Held(), (torch.randn(2, 4),)


def probe_counted():
    return Counted(), (torch.randn(2, 4),)


def probe_numbered():
    return Numbered(), (torch.randn(2, 4),)


def probe_listed():
    return Listed(), (torch.randn(2, 4),)


def probe_consumed():
    return Consumed(), (torch.randn(2, 4),)
