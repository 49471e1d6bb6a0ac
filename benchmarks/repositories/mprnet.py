import importlib.util
import os

import torch

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load(task, module):
    # Each task folder (Deblurring, Denoising, Deraining) has its own MPRNet.py and losses.py,
    # run from that folder: load each under a name of its own.
    spec = importlib.util.spec_from_file_location(
        f"{task}_{module}", os.path.join(_ROOT, task, f"{module}.py")
    )
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


_deblurring = _load("Deblurring", "MPRNet")
_denoising = _load("Denoising", "MPRNet")
_deraining = _load("Deraining", "MPRNet")
_losses = _load("Deblurring", "losses")


def _tiny(module):
    return module.MPRNet(n_feat=8, scale_unetfeats=4, scale_orsnetfeats=4, num_cab=1, reduction=4)


def probe_deblurring_eval():
    return _tiny(_deblurring).eval(), (torch.rand(1, 3, 32, 32),)


def probe_deblurring_train():
    return _tiny(_deblurring).train(), (torch.rand(2, 3, 32, 32),)


def probe_denoising_eval():
    return _tiny(_denoising).eval(), (torch.rand(1, 3, 32, 32),)


def probe_deraining_odd_size():
    return _tiny(_deraining).eval(), (torch.rand(1, 3, 40, 24),)


def probe_sam():
    return _deblurring.SAM(8, 3, False).eval(), (torch.rand(1, 8, 16, 16), torch.rand(1, 3, 16, 16))


def probe_charbonnier_loss():
    return _losses.CharbonnierLoss(), (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))


def probe_edge_loss():
    return _losses.EdgeLoss(), (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))
