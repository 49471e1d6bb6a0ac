"""piq (image-quality metrics), on random images from `torch.rand` and random feature vectors
from `torch.randn` (nothing is downloaded: no metric that needs pretrained network weights).
Full-reference metrics as a training loop or an evaluation calls them, `metric(x, y)` on a batch
of distorted and reference images, with their input validation: SSIM (also on complex-valued
images), multi-scale SSIM, PSNR, gradient magnitude similarity deviation (single and multi
scale), feature similarity (phase congruency over log-Gabor filters), visual information
fidelity, visual saliency, mean deviation similarity and Haar wavelet similarity indices;
total variation; a metric as a loss module (the training use); and the distribution metrics
on precomputed features (FID, KID).
"""

import piq
import torch

PACKAGES = ("piq",)
MODES = ("eval",)

_BATCH = 2
_SIZE = 64


def _images(channels: int = 3, size: int = _SIZE):
    return torch.rand(_BATCH, channels, size, size), torch.rand(_BATCH, channels, size, size)


def build_ssim():
    return piq.ssim, _images(), {"data_range": 1.0, "reduction": "none"}


def build_ssim_complex():
    # Complex-valued images: a trailing dimension of size 2 (real, imaginary).
    x, y = torch.rand(_BATCH, 1, 32, 32, 2), torch.rand(_BATCH, 1, 32, 32, 2)
    return piq.ssim, (x, y), {"kernel_size": 7}


def build_multi_scale_ssim():
    return piq.multi_scale_ssim, _images(1), {"kernel_size": 3}


def build_psnr():
    return piq.psnr, _images(), {"data_range": 1.0, "convert_to_greyscale": True}


def build_gmsd():
    return piq.gmsd, _images()


def build_multi_scale_gmsd():
    return piq.multi_scale_gmsd, _images(), {"chromatic": True}


def build_fsim():
    return piq.fsim, _images()


def build_vif():
    return piq.vif_p, _images(1)


def build_vsi():
    return piq.vsi, _images()


def build_mdsi():
    return piq.mdsi, _images()


def build_haarpsi():
    return piq.haarpsi, _images()


def build_total_variation():
    return piq.total_variation, (torch.rand(_BATCH, 3, _SIZE, _SIZE),), {"norm_type": "l1"}


def build_gmsd_loss():
    distorted, reference = _images()
    return piq.GMSDLoss(), (distorted.requires_grad_(), reference)


def build_fid_on_features():
    return piq.FID().compute_metric, (torch.randn(32, 8), torch.randn(32, 8))


def build_kid_on_features():
    return piq.KID(subset_size=16).compute_metric, (torch.randn(32, 8), torch.randn(32, 8))
