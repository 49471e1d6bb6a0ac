import io
import os
import sys

import torch

# The repository's scripts run from its root (flat imports such as `from fpn import FPN50`).
# utils.py reads the terminal's width with `stty size` when imported: a terminal-less run gets
# no output and fails to unpack it, so the probes give it one.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_popen = os.popen
os.popen = lambda *args, **kwargs: io.StringIO("24 80")
try:
    from encoder import DataEncoder
    from retinanet import RetinaNet
    from utils import box_iou
finally:
    os.popen = _popen

SIZE = 64


def _boxes(n):
    xy = torch.rand(n, 2) * SIZE / 2
    return torch.cat([xy, xy + 8 + torch.rand(n, 2) * SIZE / 2], 1)


def probe_retinanet_eval():
    return RetinaNet(num_classes=3).eval(), (torch.randn(1, 3, SIZE, SIZE),)


def probe_encode():
    encoder = DataEncoder()
    return encoder.encode, (_boxes(3), torch.tensor([0, 2, 1]), SIZE)


def probe_decode():
    encoder = DataEncoder()
    anchors = encoder._get_anchor_boxes(torch.Tensor([SIZE, SIZE])).size(0)
    # three boxes (one anchor's shape in three neighbouring cells) the first suppresses: the
    # repository's box_nms fails on a single box left after a suppression
    cls = torch.full((anchors, 3), -4.0)
    cls[[5, 14, 23], 1] = torch.tensor([4.0, 3.0, 2.0])
    return encoder.decode, (torch.zeros(anchors, 4), cls, SIZE)


def probe_box_iou():
    return box_iou, (_boxes(4), _boxes(3))
