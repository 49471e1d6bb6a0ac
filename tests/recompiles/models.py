import torch


class Counter(torch.nn.Module):
    """Counts its calls in a Python int: a guard on the count, failing on every call."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * self.scale + self.calls


def total(x, n: int):
    for i in range(n):
        x = x + i
    return x


def total_of_tensor(x, n):
    return x + n * (n - 1) // 2


def scaled(x, scale: float):
    return x * scale


def widened(x):
    return x * 2


compiled_total = torch.compile(total)
compiled_total_of_tensor = torch.compile(total_of_tensor)
compiled_scaled = torch.compile(scaled)
compiled_widened = torch.compile(widened)
