"""Checks for TorchScript's tracer: each is False while Dynamo traces."""

import torch


def _is_tracing():
    return torch._C._get_tracing_state()


def is_tracing():
    return _is_tracing()


def exporting():
    return torch.jit.is_scripting() or is_tracing()


def eager_mode():
    return not is_tracing()


def onnx_sizes(x):
    return [int(n) for n in x.sum(0)]


def on_host(x):
    if x.dim() > 3:
        return torch._C._get_tracing_state()
    return not x.is_cuda


def _compiling_of(x):
    return torch.compiler.is_compiling()


def compiled(x):
    return _compiling_of(x)


def fast_path():
    if hasattr(torch, "compiler"):
        answer = torch.compiler.is_compiling()
    else:
        answer = torch._dynamo.is_compiling()
    return answer
