import os
import sys
import tempfile
import types

import torch

# data/ imports OpenCV and torchvision at import time (its datasets and their transforms); the
# model, its loss and its detection layer use neither.
for _name in ("cv2", "torchvision", "torchvision.transforms"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
# data/coco.py reads ~/data/coco/coco_labels.txt at import (a default argument): import it with
# HOME at an empty label file.
_home, _labels = os.environ.get("HOME"), tempfile.mkdtemp()
os.makedirs(os.path.join(_labels, "data", "coco"))
open(os.path.join(_labels, "data", "coco", "coco_labels.txt"), "w").close()
os.environ["HOME"] = _labels
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from data import voc  # noqa: E402
from layers import Detect, PriorBox  # noqa: E402
from layers.box_utils import match, nms  # noqa: E402
from ssd import build_ssd  # noqa: E402

if _home is not None:
    os.environ["HOME"] = _home

CLASSES = 21
PRIORS = PriorBox(voc).forward()


def _targets(batch):
    boxes = torch.rand(batch, 3, 2) * 0.5
    corners = torch.cat([boxes, boxes + 0.3], dim=2)
    labels = torch.randint(0, CLASSES - 1, (batch, 3, 1)).float()
    return [row for row in torch.cat([corners, labels], dim=2)]


def _predictions(batch):
    count = PRIORS.size(0)
    return torch.randn(batch, count, 4), torch.randn(batch, count, CLASSES), PRIORS


def probe_ssd_train():
    return build_ssd("train", 300, CLASSES).train(), (torch.rand(1, 3, 300, 300),)


# MultiBoxLoss indexes its (batch * priors, 1) loss with a (batch, priors) mask, which torch has
# refused since 1.0: it is not probed.


def probe_detect():
    detect = Detect(CLASSES, 0, 20, 0.01, 0.45)
    loc, conf, priors = _predictions(1)
    return detect.forward, (loc, torch.softmax(conf, -1).view(-1, CLASSES), priors)


def probe_nms():
    corners = torch.rand(30, 2)
    boxes = torch.cat([corners, corners + 0.2], dim=1)
    return nms, (boxes, torch.rand(30), 0.5, 10)


def probe_match():
    count = PRIORS.size(0)
    loc_t, conf_t = torch.zeros(1, count, 4), torch.zeros(1, count, dtype=torch.long)
    target = _targets(1)[0]
    return match, (0.5, target[:, :-1], PRIORS, [0.1, 0.2], target[:, -1], loc_t, conf_t, 0)


def probe_prior_box():
    return PriorBox(voc).forward, ()
