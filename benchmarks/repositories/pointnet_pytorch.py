import os
import sys

import torch

# The repository installs a package `pointnet` (setup.py at its root).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pointnet.model import (
    PointNetCls,
    PointNetDenseCls,
    STN3d,
    STNkd,
    feature_transform_regularizer,
)

POINTS = 32


def probe_classifier_train():
    return PointNetCls(k=4, feature_transform=True).train(), (torch.randn(2, 3, POINTS),)


def probe_classifier_eval():
    return PointNetCls(k=4).eval(), (torch.randn(2, 3, POINTS),)


def probe_segmentation_eval():
    return PointNetDenseCls(k=3, feature_transform=True).eval(), (torch.randn(2, 3, POINTS),)


def probe_stn3d_eval():
    return STN3d().eval(), (torch.randn(2, 3, POINTS),)


def probe_stnkd_eval():
    return STNkd(k=8).eval(), (torch.randn(2, 8, POINTS),)


def probe_regularizer():
    return feature_transform_regularizer, (torch.randn(2, 8, 8),)
