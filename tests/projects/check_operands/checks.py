"""A check of TorchScript's tracer: False while Dynamo traces."""

import torch


def exporting():
    return torch._C._get_tracing_state()
