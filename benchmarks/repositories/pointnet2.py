import os
import sys

import torch

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")
)
from pointnet2_utils import (
    PointNetSetAbstraction,
    PointNetSetAbstractionMsg,
    farthest_point_sample,
    query_ball_point,
)
from pointnet_cls import get_model


def _cloud(points=64):
    return torch.rand(2, 3, points)


def probe_pointnet_eval():
    return get_model(k=5, normal_channel=False).eval(), (_cloud(),)


def probe_farthest_point_sample():
    return farthest_point_sample, (_cloud().transpose(1, 2), 8)


def probe_query_ball_point():
    xyz = _cloud().transpose(1, 2)
    return query_ball_point, (0.4, 4, xyz, xyz[:, :8])


def probe_set_abstraction():
    layer = PointNetSetAbstraction(8, 0.4, 4, 3 + 3, [16, 32], group_all=False).eval()
    return layer, (_cloud(), _cloud())


def probe_set_abstraction_msg():
    layer = PointNetSetAbstractionMsg(8, [0.2, 0.4], [4, 8], 3, [[16, 16], [16, 32]]).eval()
    return layer, (_cloud(), _cloud())
