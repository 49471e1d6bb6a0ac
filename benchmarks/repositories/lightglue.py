import contextlib
import os
import sys
import types

import torch

# lightglue.utils and lightglue.sift import OpenCV at import time to read and resize image
# files; no probe reads a file.
_cv2 = types.ModuleType("cv2")
_cv2.Feature2D = object  # an annotation of lightglue.sift
sys.modules.setdefault("cv2", _cv2)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lightglue import LightGlue, SuperPoint  # noqa: E402
from lightglue.lightglue import filter_matches  # noqa: E402
from lightglue.superpoint import simple_nms  # noqa: E402


@contextlib.contextmanager
def _random_weights():
    """SuperPoint downloads its weights while it is made: keep the random ones instead."""
    download, load = torch.hub.load_state_dict_from_url, torch.nn.Module.load_state_dict
    torch.hub.load_state_dict_from_url = lambda *args, **kwargs: {}
    torch.nn.Module.load_state_dict = lambda self, *args, **kwargs: None
    try:
        yield
    finally:
        torch.hub.load_state_dict_from_url, torch.nn.Module.load_state_dict = download, load


def _superpoint(**conf):
    with _random_weights():
        return SuperPoint(**conf).eval()


def _matcher(**conf):
    # features=None: no weights to download; the descriptors' size is given instead.
    options = dict(input_dim=32, descriptor_dim=32, n_layers=3, num_heads=2, flash=False)
    return LightGlue(features=None, **{**options, **conf}).eval()


def _features(points):
    return {
        "keypoints": torch.rand(1, points, 2) * 64,
        "descriptors": torch.nn.functional.normalize(torch.randn(1, points, 32), dim=-1),
        "image_size": torch.tensor([[64.0, 64.0]]),
    }


def _pair():
    return {"image0": _features(24), "image1": _features(20)}


def probe_superpoint():
    return _superpoint(max_num_keypoints=32), ({"image": torch.rand(1, 1, 64, 64)},)


def probe_superpoint_all_keypoints():
    return _superpoint(), ({"image": torch.rand(2, 1, 64, 64)},)


def probe_lightglue_adaptive():
    return _matcher(), (_pair(),)


def probe_lightglue_fixed_depth():
    return _matcher(depth_confidence=-1, width_confidence=-1), (_pair(),)


def probe_lightglue_scale_orientation():
    pair = _pair()
    for image in pair.values():
        points = image["keypoints"].shape[1]
        image["scales"], image["oris"] = torch.rand(1, points), torch.rand(1, points)
    return _matcher(add_scale_ori=True), (pair,)


def probe_filter_matches():
    return filter_matches, (torch.randn(1, 25, 21).log_softmax(-1), 0.1)


def probe_simple_nms():
    return simple_nms, (torch.rand(1, 32, 32), 2)
