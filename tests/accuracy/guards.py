"""A project's own "are we tracing?" helper, recognised by what it returns."""

import torch


def is_compiling_now() -> bool:
    try:
        return torch.compiler.is_compiling()
    except Exception:
        return False


def is_tracing(tensor=None) -> bool:
    tracing = is_compiling_now() or torch.jit.is_tracing()
    if tensor is not None:
        tracing |= isinstance(tensor, torch.fx.Proxy)
    return tracing
