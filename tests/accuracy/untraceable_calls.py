"""Calls Dynamo does not put in a graph: autograd's `grad` inside the forward, a backward pass
in a compiled training step, warning filters, TorchScript's `isinstance`, the caller's frame,
an import by name, the stack read through it, the process id, a garbage collection.
`warnings.catch_warnings()` alone traces."""

import gc
import importlib
import inspect
import os
import sys
import traceback
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


def introspected(x):
    here = inspect.currentframe()  # BREAK BL501
    return x * here.f_lineno


def stacked(x):
    y = x * 2
    depth = len(inspect.stack())  # BREAK BL501
    return y * depth


def formatted_stack(x):
    y = x + 1
    lines = traceback.format_stack()  # BREAK BL501
    return y * len(lines)


def process_tagged(x):
    y = x - 1
    pid = os.getpid()  # BREAK BL501
    return y * (pid > 0)


def collected(x):
    y = x * 3
    gc.collect()  # BREAK BL501
    return y + 1


compiled_introspected = torch.compile(introspected)
compiled_stacked = torch.compile(stacked)
compiled_formatted_stack = torch.compile(formatted_stack)
compiled_process_tagged = torch.compile(process_tagged)
compiled_collected = torch.compile(collected)


def probe_current_frame():
    return introspected, (torch.randn(4),)


def probe_stack():
    return stacked, (torch.randn(4),)


def probe_formatted_stack():
    return formatted_stack, (torch.randn(4),)


def probe_process_id():
    return process_tagged, (torch.randn(4),)


def probe_garbage_collection():
    return collected, (torch.randn(4),)
