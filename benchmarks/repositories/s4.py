import os
import sys
import types

import torch

# s4.py imports pytorch_lightning for one decorator (logging on rank zero) and nothing else.
_utilities = types.ModuleType("pytorch_lightning.utilities")
_utilities.rank_zero_only = lambda fn: fn
sys.modules.setdefault("pytorch_lightning", types.ModuleType("pytorch_lightning"))
sys.modules.setdefault("pytorch_lightning.utilities", _utilities)
sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models", "s4")
)
from s4 import FFTConv, S4Block  # noqa: E402


def _sequence():
    return torch.randn(2, 8, 16)  # (batch, d_model, length): transposed


def probe_s4_dplr_train():
    return S4Block(8, l_max=16, mode="dplr", d_state=4), (_sequence(),)


def probe_s4_diag_eval():
    return S4Block(8, l_max=16, mode="diag", d_state=4, init="diag-lin").eval(), (_sequence(),)


def probe_s4_lengths_eval():
    return S4Block(8, l_max=16, mode="diag", d_state=4).eval(), (
        _sequence(),
        torch.tensor([16, 12]),
    )


def probe_s4_bidirectional_train():
    block = S4Block(
        8, l_max=None, mode="diag", d_state=4, bidirectional=True, dropout=0.1, tie_dropout=True
    )
    return block, (_sequence(),)


def probe_fftconv_state_eval():
    conv = FFTConv(8, l_max=16, mode="diag", d_state=4, transposed=True).eval()
    return conv, (_sequence(),)


def probe_s4_recurrent_step():
    block = S4Block(8, l_max=16, mode="diag", d_state=4).eval()
    block.setup_step()
    state = block.default_state(2)
    return block.step, (torch.randn(2, 8), state)
