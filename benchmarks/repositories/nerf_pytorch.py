import functools
import os
import sys
import types

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# `run_nerf` imports its dataset loaders and plotting at module level; the probes use neither,
# so the image libraries this environment lacks are empty stand-ins.
for missing in ("imageio", "cv2", "matplotlib", "matplotlib.pyplot"):
    try:
        __import__(missing)
    except ImportError:
        sys.modules[missing] = types.ModuleType(missing)
from run_nerf import render_rays, run_network  # noqa: E402
from run_nerf_helpers import NeRF, get_embedder, get_rays, ndc_rays, sample_pdf  # noqa: E402


def _networks():
    embed, points = get_embedder(4, 0)
    embed_dirs, views = get_embedder(2, 0)
    coarse, fine = (
        NeRF(D=3, W=32, input_ch=points, input_ch_views=views, skips=[1], use_viewdirs=True)
        for _ in range(2)
    )
    query = functools.partial(run_network, embed_fn=embed, embeddirs_fn=embed_dirs, netchunk=256)
    return coarse, fine, query, points + views


def _rays(n=16):
    origins, directions = (
        torch.randn(n, 3),
        torch.nn.functional.normalize(torch.randn(n, 3), dim=-1),
    )
    bounds = torch.tensor([[2.0, 6.0]]).expand(n, 2)
    return torch.cat([origins, directions, bounds, directions], -1)


def probe_nerf():
    coarse, _, _, width = _networks()
    return coarse, (torch.randn(64, width),)


def probe_render_rays_train():
    coarse, fine, query, _ = _networks()
    render = functools.partial(
        render_rays, network_fn=coarse, network_query_fn=query, N_samples=8, N_importance=4,
        network_fine=fine, perturb=1.0, raw_noise_std=1.0,
    )  # fmt: skip
    return render, (_rays(),)


def probe_render_rays_eval():
    coarse, fine, query, _ = _networks()
    render = functools.partial(
        render_rays, network_fn=coarse, network_query_fn=query, N_samples=8, N_importance=4,
        network_fine=fine, retraw=True,
    )  # fmt: skip
    return render, (_rays(),)


def probe_get_rays():
    camera = np.array([[20.0, 0.0, 4.0], [0.0, 20.0, 4.0], [0.0, 0.0, 1.0]])
    return get_rays, (8, 8, camera, torch.eye(4)[:3])


def probe_ndc_rays():
    return ndc_rays, (8, 8, 20.0, 1.0, torch.randn(16, 3), torch.randn(16, 3))


def probe_sample_pdf():
    return sample_pdf, (torch.linspace(0, 1, 9).expand(4, 9), torch.rand(4, 8), 6)
