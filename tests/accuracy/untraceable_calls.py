"""Calls Dynamo does not put in a graph: autograd's `grad` inside the forward, a backward pass
in a compiled training step, warning filters, TorchScript's `isinstance`, the caller's frame,
an import by name.
`warnings.catch_warnings()` alone traces."""

import importlib
import sys
import warnings

import torch
from torch.autograd import Variable


def input_gradient(x):
    y = (x * x).sum()
    (grad,) = torch.autograd.grad(y, x, create_graph=True)  # BREAK BL509
    return grad + 1


def wrapped(x):
    y = Variable(x * 2, requires_grad=True)  # BREAK BL509
    return y + 1


def step(layer, x):
    loss = layer(x).pow(2).mean()
    loss.backward()  # BREAK BL509
    return loss.detach()


def quiet(x):
    y = x + 1
    with warnings.catch_warnings():
        y = y * 2
    warnings.simplefilter("ignore", DeprecationWarning)  # BREAK BL501
    return y - 1


def buffer_bytes(x):
    y = x.contiguous()
    size = y.untyped_storage().nbytes()  # BREAK BL509
    return y * size


def storage_bytes(x):
    y = x * 2
    size = y.storage().nbytes()  # BREAK BL509
    return x * size


def merged(x, skip):
    y = x * 2
    if skip is not None and torch.jit.isinstance(skip, torch.Tensor):  # BREAK BL509
        y = y + skip
    return y - 1


def located(x):
    frame = sys._getframe(0)  # BREAK BL501
    return x * frame.f_lineno


def configured(x):
    module = importlib.import_module("math")  # BREAK BL501
    return x * module.pi


compiled_input_gradient = torch.compile(input_gradient)
compiled_buffer_bytes = torch.compile(buffer_bytes)
compiled_storage_bytes = torch.compile(storage_bytes)
compiled_quiet = torch.compile(quiet)
compiled_step = torch.compile(step)
compiled_wrapped = torch.compile(wrapped)
compiled_merged = torch.compile(merged)
compiled_located = torch.compile(located)
compiled_configured = torch.compile(configured)


def probe_autograd_grad():
    return input_gradient, (torch.randn(4, requires_grad=True),)


def probe_variable():
    return wrapped, (torch.randn(4),)


def probe_warning_filters():
    return quiet, (torch.randn(4),)


def probe_backward():
    return step, (torch.nn.Linear(4, 1), torch.randn(2, 4))


def probe_untyped_storage():
    return buffer_bytes, (torch.randn(4),)


def probe_storage():
    return storage_bytes, (torch.randn(4),)


def probe_scripting_isinstance():
    return merged, (torch.randn(4), torch.randn(4))


def probe_caller_frame():
    return located, (torch.randn(4),)


def probe_import_by_name():
    return configured, (torch.randn(4),)
