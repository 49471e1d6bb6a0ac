"""kornia: differentiable computer vision, tiny, random weights (no pretrained weights are
loaded), on random images from `torch.rand`: augmentation pipelines (colour and geometry on
images, geometry on images with masks), filters (Gaussian blur, Canny edges, median),
geometry (perspective warp, rotation), colour conversion, contrast-limited histogram
equalisation, local features (SIFT descriptors on patches, HardNet, the SIFT detector and
descriptor on an image, DISK), matchers on small configurations (LoFTR, inference only, and
LightGlue), losses (SSIM, focal), a metric (mean IoU) and two vision models (TinyViT, a
ViT)."""

import functools

import torch
from kornia.augmentation import (
    AugmentationSequential,
    RandomAffine,
    RandomBrightness,
    RandomContrast,
    RandomGamma,
    RandomGaussianBlur,
    RandomHorizontalFlip,
    RandomHue,
    RandomResizedCrop,
    RandomRotation,
    RandomSaturation,
    RandomVerticalFlip,
)
from kornia.color import RgbToLab
from kornia.enhance import equalize_clahe
from kornia.feature import DISK, SIFTDescriptor, SIFTFeature
from kornia.feature import HardNet as HardNetDescriptor
from kornia.feature import LightGlue as LightGlueMatcher
from kornia.feature import LoFTR as LoFTRMatcher
from kornia.filters import Canny, GaussianBlur2d, MedianBlur
from kornia.geometry.transform import rotate, warp_perspective
from kornia.losses import FocalLoss, SSIMLoss
from kornia.metrics import mean_iou
from kornia.models.tiny_vit import TinyViT
from kornia.models.vit import VisionTransformer

PACKAGES = ("kornia",)
MODES = ("eval", "train")

_SIZE = 32


def _images(channels: int = 3, size: int = _SIZE, batch: int = 2) -> torch.Tensor:
    return torch.rand(batch, channels, size, size)


def build_augmentation_pipeline():
    # Colour by its separate augmentations, not ColorJitter: breaklint's probe fails on that
    # one (Dynamo raises GuardOnDataDependentSymNode when the probe reruns it with
    # capture_scalar_outputs), and a failed probe records no truth.
    pipeline = AugmentationSequential(
        RandomResizedCrop((24, 24), scale=(0.5, 1.0)),
        RandomAffine(degrees=15.0, translate=(0.1, 0.1), p=0.8),
        RandomHorizontalFlip(),
        RandomGaussianBlur((3, 3), (0.1, 1.5), p=0.5),
        RandomBrightness((0.8, 1.2), p=0.8),
        RandomContrast((0.8, 1.2), p=0.8),
        RandomSaturation((0.8, 1.2), p=0.8),
        RandomHue((-0.1, 0.1), p=0.8),
        RandomGamma((0.8, 1.2), p=0.5),
    )
    return pipeline, (_images(),)


def build_augmentation_image_and_mask():
    # Not RandomResizedCrop: on a mask, Dynamo 2.13 fails inside (InternalTorchDynamoError
    # while guarding the crop's lazily built matrix arguments).
    pipeline = AugmentationSequential(
        RandomAffine(degrees=20.0, scale=(0.8, 1.2), p=1.0),
        RandomVerticalFlip(),
        RandomRotation(20.0),
        data_keys=["input", "mask"],
    )
    return pipeline, (_images(), (torch.rand(2, 1, _SIZE, _SIZE) > 0.5).float())


def build_gaussian_blur():
    return GaussianBlur2d((5, 5), (1.5, 1.5)), (_images(),)


def build_canny():
    return Canny(low_threshold=0.1, high_threshold=0.2), (_images(),)


def build_median_blur():
    return MedianBlur((3, 3)), (_images(),)


def build_warp_perspective():
    homography = torch.eye(3).repeat(2, 1, 1) + 0.01 * torch.randn(2, 3, 3)
    return warp_perspective, (_images(), homography, (_SIZE, _SIZE))


def build_rotate():
    return rotate, (_images(), torch.tensor([30.0, -45.0]))


def build_rgb_to_lab():
    return RgbToLab(), (_images(),)


def build_equalize_clahe():
    return equalize_clahe, (_images(),), {"clip_limit": 2.0, "grid_size": (4, 4)}


def build_sift_descriptor():
    return SIFTDescriptor(32, rootsift=True), (torch.rand(4, 1, 32, 32),)


def build_hardnet():
    return HardNetDescriptor(pretrained=False), (torch.rand(4, 1, 32, 32),)


def build_sift_feature():
    return SIFTFeature(num_features=50), (torch.rand(1, 1, 64, 64),)


def build_disk():
    return DISK(desc_dim=16), (_images(size=64, batch=1),), {"n": 50}


def build_loftr():
    config = {
        "backbone_type": "ResNetFPN",
        "resolution": (8, 2),
        "fine_window_size": 5,
        "fine_concat_coarse_feat": True,
        "resnetfpn": {"initial_dim": 16, "block_dims": [16, 24, 32]},
        "coarse": {
            "d_model": 32,
            "d_ffn": 32,
            "nhead": 2,
            "layer_names": ["self", "cross"],
            "attention": "linear",
            "temp_bug_fix": False,
        },
        "match_coarse": {
            "thr": 0.2,
            "border_rm": 2,
            "match_type": "dual_softmax",
            "dsmax_temperature": 0.1,
            "skh_iters": 3,
            "skh_init_bin_score": 1.0,
            "skh_prefilter": True,
            "train_coarse_percent": 0.4,
            "train_pad_num_gt_min": 200,
        },
        "fine": {
            "d_model": 16,
            "d_ffn": 16,
            "nhead": 2,
            "layer_names": ["self", "cross"],
            "attention": "linear",
        },
    }
    pair = {"image0": _images(1, 64, 1), "image1": _images(1, 64, 1)}
    # Inference in both modes: in training mode LoFTR reads ground-truth matches from a dict its
    # forward builds afresh, so it cannot train through forward. A partial is not put in a mode.
    model = LoFTRMatcher(pretrained=None, config=config).eval()
    return functools.partial(LoFTRMatcher.forward, model), (pair,)


def build_lightglue():
    model = LightGlueMatcher(
        features=None, input_dim=32, descriptor_dim=32, n_layers=2, num_heads=2
    )

    def image(points: int) -> dict[str, torch.Tensor]:
        return {
            "keypoints": torch.rand(1, points, 2) * 63,
            "descriptors": torch.randn(1, points, 32),
            "image_size": torch.tensor([[64.0, 64.0]]),
        }

    return model, ({"image0": image(40), "image1": image(30)},)


def build_ssim_loss():
    return SSIMLoss(5), (_images(), _images())


def build_focal_loss():
    logits = torch.randn(2, 4, 8, 8)
    labels = torch.randint(0, 4, (2, 8, 8))
    return FocalLoss(alpha=0.5, gamma=2.0, reduction="mean"), (logits, labels)


def build_mean_iou():
    return mean_iou, (torch.randint(0, 4, (2, 64)), torch.randint(0, 4, (2, 64)), 4)


def build_tiny_vit():
    model = TinyViT(
        img_size=64,
        num_classes=10,
        embed_dims=(16, 32, 48, 64),
        depths=(1, 1, 1, 1),
        num_heads=(1, 2, 3, 4),
        window_sizes=(4, 4, 4, 2),
        drop_path_rate=0.1,
    )
    return model, (_images(size=64),)


def build_vit():
    model = VisionTransformer(image_size=_SIZE, patch_size=8, embed_dim=32, depth=2, num_heads=2)
    return model, (_images(),)
