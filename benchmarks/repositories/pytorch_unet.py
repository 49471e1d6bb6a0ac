import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from unet import UNet
from unet.unet_parts import Up
from utils.dice_score import dice_coeff, dice_loss, multiclass_dice_coeff


def probe_unet_transposed():
    return UNet(3, 2).eval(), (torch.rand(1, 3, 32, 32),)


def probe_unet_bilinear():
    return UNet(3, 2, bilinear=True).eval(), (torch.rand(1, 3, 32, 32),)


def probe_unet_odd_size():
    # Up pads the upsampled map when the skip connection is larger.
    return UNet(1, 1, bilinear=True).eval(), (torch.rand(1, 1, 36, 44),)


def probe_up_padding():
    return Up(8, 4, bilinear=True).eval(), (torch.rand(1, 4, 5, 5), torch.rand(1, 4, 11, 11))


def probe_dice_coeff():
    return dice_coeff, (torch.rand(2, 16, 16), (torch.rand(2, 16, 16) > 0.5).float())


def probe_multiclass_dice():
    return multiclass_dice_coeff, (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))


def probe_dice_loss():
    return dice_loss, (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16), True)
