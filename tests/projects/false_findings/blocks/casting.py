import torch


def to_int(x):
    return x.to(torch.int64) if torch.jit.is_tracing() and isinstance(x, torch.Tensor) else int(x)


def rounded(x, exact: bool):
    if exact and torch.compiler.is_compiling():
        return x
    return x * int(x.amax())  # traced only when `exact` is false: a warning


def clipped(x):
    if torch.compiler.is_compiling():
        return x
    return x * int(x.amax())  # never traced
