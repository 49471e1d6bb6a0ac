import importlib
import os
import sys

import torch

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
# The repository's modules import each other by bare name from src/ (`from retention import ...`),
# and src/complex/ repeats those names for its complex-valued variant: import the real-valued
# modules first, then the complex ones with src/complex/ first on the path, and keep each under a
# name of its own (Dynamo imports a function's module again by its name).
sys.path.insert(0, SRC)
from retention import MultiScaleRetention, SimpleRetention  # noqa: E402
from retnet import RetNet  # noqa: E402

_real = {name: sys.modules.pop(name) for name in ("retention", "retnet")}
sys.path.insert(0, os.path.join(SRC, "complex"))
complex_retnet = importlib.import_module("retnet")
for _name in ("retention", "retnet"):
    _module = sys.modules.pop(_name)
    _module.__name__ = f"complex_{_name}"
    sys.modules[_module.__name__] = _module
sys.path.pop(0)
sys.modules.update(_real)

BATCH, LENGTH, HIDDEN, HEADS, LAYERS, VOCAB = 2, 6, 12, 3, 2, 20


def _states(v_dim, dtype=torch.float32):
    head = torch.zeros(BATCH, HIDDEN // HEADS, v_dim // HEADS, dtype=dtype)
    return [head.clone() for _ in range(HEADS)]


def probe_retnet_parallel():
    return RetNet(LAYERS, HIDDEN, 24, HEADS).eval(), (torch.rand(BATCH, LENGTH, HIDDEN),)


def probe_retnet_double_v():
    model = RetNet(LAYERS, HIDDEN, 24, HEADS, double_v_dim=True).eval()
    return model, (torch.rand(BATCH, LENGTH, HIDDEN),)


def probe_retnet_recurrent():
    model = RetNet(LAYERS, HIDDEN, 24, HEADS).eval()
    states = [_states(HIDDEN) for _ in range(LAYERS)]
    return model.forward_recurrent, (torch.rand(BATCH, 1, HIDDEN), states, 3)


def probe_retnet_chunkwise():
    model = RetNet(LAYERS, HIDDEN, 24, HEADS).eval()
    states = [_states(HIDDEN) for _ in range(LAYERS)]
    return model.forward_chunkwise, (torch.rand(BATCH, 2, HIDDEN), states, 1)


def probe_simple_retention_recurrent():
    layer = SimpleRetention(HIDDEN, 0.9).eval()
    return layer.forward_recurrent, (
        torch.rand(BATCH, 1, HIDDEN),
        torch.zeros(BATCH, HIDDEN, HIDDEN),
        2,
    )


def probe_multiscale_retention():
    return MultiScaleRetention(HIDDEN, HEADS).eval(), (torch.rand(BATCH, LENGTH, HIDDEN),)


def probe_complex_retnet():
    return complex_retnet.RetNet(LAYERS, HIDDEN, 24, HEADS).eval(), (
        torch.rand(BATCH, LENGTH, HIDDEN),
    )


def probe_complex_language_model():
    model = complex_retnet.RetNetCLM(LAYERS, HIDDEN, 24, HEADS, VOCAB).eval()
    return model, (torch.randint(0, VOCAB, (BATCH, LENGTH)),)


def probe_complex_language_model_recurrent():
    model = complex_retnet.RetNetCLM(LAYERS, HIDDEN, 24, HEADS, VOCAB).eval()
    states = [_states(HIDDEN, torch.complex64) for _ in range(LAYERS)]
    return model.forward_recurrent, (torch.randint(0, VOCAB, (BATCH,)), states, 1)
