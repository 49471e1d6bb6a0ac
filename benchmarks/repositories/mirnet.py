import os
import sys
import types

import torch

# utils/__init__ imports file and image helpers (natsort, cv2) that the network never calls.
for _name in ("natsort", "cv2"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["natsort"].natsorted = sorted
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from losses import TVLoss, tv_loss  # noqa: E402
from networks.MIRNet_model import MSRB, SKFF, MIRNet  # noqa: E402


def _mirnet():
    return MIRNet(n_feat=8, n_RRG=1, n_MSRB=1, height=3, width=2)


def probe_mirnet_eval():
    return _mirnet().eval(), (torch.rand(1, 3, 32, 32),)


def probe_mirnet_train():
    return _mirnet().train(), (torch.rand(2, 3, 32, 32),)


def probe_msrb():
    return MSRB(8, 3, 2, 2, False).eval(), (torch.rand(1, 8, 16, 16),)


def probe_skff():
    feats = [torch.rand(1, 8, 8, 8) for _ in range(3)]
    return SKFF(8, height=3).eval(), (feats,)


def probe_tv_loss_module():
    return TVLoss(), (torch.rand(2, 3, 16, 16),)


def probe_tv_loss():
    return tv_loss, (torch.rand(2, 3, 16, 16),)
