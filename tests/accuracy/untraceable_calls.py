"""Calls Dynamo does not put in a graph: autograd's `grad` inside the forward, warning filters.
`warnings.catch_warnings()` alone traces."""

import warnings

import torch


def input_gradient(x):
    y = (x * x).sum()
    (grad,) = torch.autograd.grad(y, x, create_graph=True)  # BREAK BL509
    return grad + 1


def quiet(x):
    y = x + 1
    with warnings.catch_warnings():
        y = y * 2
    warnings.simplefilter("ignore", DeprecationWarning)  # BREAK BL501
    return y - 1


compiled_input_gradient = torch.compile(input_gradient)
compiled_quiet = torch.compile(quiet)


def probe_autograd_grad():
    return input_gradient, (torch.randn(4, requires_grad=True),)


def probe_warning_filters():
    return quiet, (torch.randn(4),)
