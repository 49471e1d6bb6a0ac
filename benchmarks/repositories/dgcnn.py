import os
import sys
from types import SimpleNamespace

import torch

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pytorch")
)
from model import PointNet, knn
from util import cal_loss

ARGS = SimpleNamespace(k=4, emb_dims=32, dropout=0.5)

# DGCNN and get_graph_feature build their indices on torch.device('cuda') whatever the input's
# device: they cannot run on a CPU, so only the parts that can are probed.


def probe_pointnet():
    return PointNet(ARGS, output_channels=5).eval(), (torch.rand(2, 3, 24),)


def probe_knn():
    return knn, (torch.rand(2, 3, 24), 4)


def probe_smoothed_loss():
    return cal_loss, (torch.randn(8, 5), torch.randint(0, 5, (8,)))


def probe_plain_loss():
    return cal_loss, (torch.randn(8, 5), torch.randint(0, 5, (8,)), False)
