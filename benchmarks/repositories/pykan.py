import os
import sys
import types

import torch

# kan imports matplotlib (plots), pandas (a table of symbolic fits) and scikit-learn (a linear
# fit of symbolic functions) at import time; the forward passes below use none of them.
for _name in ("matplotlib", "matplotlib.pyplot", "pandas", "sklearn", "sklearn.linear_model",
              "sklearn.cluster"):  # fmt: skip
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["sklearn.linear_model"].LinearRegression = None
sys.modules["sklearn.cluster"].AgglomerativeClustering = None
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from kan.KANLayer import KANLayer  # noqa: E402
from kan.MLP import MLP  # noqa: E402
from kan.MultKAN import MultKAN  # noqa: E402
from kan.Symbolic_KANLayer import Symbolic_KANLayer  # noqa: E402


def _kan(**options):
    # auto_save would write checkpoints under ./model on every change of the model.
    return MultKAN(width=[2, 3, 1], grid=3, k=3, seed=0, auto_save=False, **options)


def probe_kan_forward():
    return _kan(), (torch.rand(8, 2),)


def probe_kan_without_saved_activations():
    model = _kan(save_act=False)
    return model, (torch.rand(8, 2),)


def probe_kan_speed_mode():
    model = _kan()
    model.speed()  # no symbolic branch, no saved activations: the mode meant for training
    return model, (torch.rand(8, 2),)


def probe_kan_multiplication_nodes():
    model = MultKAN(width=[2, [2, 2], 1], grid=3, k=3, seed=0, auto_save=False)
    return model, (torch.rand(8, 2),)


def probe_kan_singularity_avoiding():
    return _kan(), (torch.rand(8, 2), True, 5.0)


def probe_kan_fixed_symbolic():
    model = _kan()
    model.fix_symbolic(0, 0, 0, "sin", fit_params_bool=False, verbose=False, log_history=False)
    return model, (torch.rand(8, 2),)


def probe_kan_update_grid():
    return _kan().update_grid, (torch.rand(16, 2),)


def probe_kan_layer():
    return KANLayer(in_dim=3, out_dim=2, num=4, k=3), (torch.rand(8, 3),)


def probe_symbolic_layer():
    return Symbolic_KANLayer(in_dim=3, out_dim=2), (torch.rand(8, 3),)


def probe_mlp():
    return MLP(width=[2, 4, 1]), (torch.rand(8, 2),)
