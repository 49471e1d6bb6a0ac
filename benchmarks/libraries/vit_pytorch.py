"""vit-pytorch (lucidrains): vision transformers of many designs, tiny, random weights: the
plain ViT and SimpleViT, CaiT, DeepViT, CrossViT (two patch scales), PiT (pooling), LeViT,
CvT (convolutional embeddings), MobileViT, MaxViT (windowed attention), NaViT (images of
different sizes packed together). (The MAE wrapper was left out: in this version it
cannot wrap the library's own ViT, whose position embedding lost a dimension.)"""

import torch
from vit_pytorch import SimpleViT, ViT
from vit_pytorch.cait import CaiT
from vit_pytorch.cross_vit import CrossViT
from vit_pytorch.cvt import CvT
from vit_pytorch.deepvit import DeepViT
from vit_pytorch.levit import LeViT
from vit_pytorch.max_vit import MaxViT
from vit_pytorch.mobile_vit import MobileViT
from vit_pytorch.na_vit import NaViT
from vit_pytorch.pit import PiT

PACKAGES = ("vit_pytorch",)
MODES = ("eval", "train")

_TINY = {"dim": 32, "depth": 2, "heads": 2, "mlp_dim": 64, "num_classes": 10}


def _images(size: int = 32) -> torch.Tensor:
    return torch.randn(2, 3, size, size)


def build_vit():
    return ViT(image_size=32, patch_size=8, dim_head=16, **_TINY), (_images(),)


def build_simple_vit():
    return SimpleViT(image_size=32, patch_size=8, dim_head=16, **_TINY), (_images(),)


def build_cait():
    model = CaiT(image_size=32, patch_size=8, cls_depth=1, dim_head=16, layer_dropout=0.1, **_TINY)
    return model, (_images(),)


def build_deepvit():
    return DeepViT(image_size=32, patch_size=8, dim_head=16, **_TINY), (_images(),)


def build_cross_vit():
    model = CrossViT(
        image_size=32,
        num_classes=10,
        sm_dim=32,
        lg_dim=48,
        sm_patch_size=8,
        sm_enc_heads=2,
        sm_enc_mlp_dim=64,
        sm_enc_dim_head=16,
        lg_patch_size=16,
        lg_enc_depth=1,
        lg_enc_heads=2,
        lg_enc_mlp_dim=64,
        lg_enc_dim_head=16,
        cross_attn_depth=1,
        cross_attn_heads=2,
        cross_attn_dim_head=16,
        depth=1,
    )
    return model, (_images(),)


def build_pit():
    model = PiT(
        image_size=32,
        patch_size=8,
        dim=32,
        depth=(1, 1, 1),
        heads=2,
        mlp_dim=64,
        dim_head=16,
        num_classes=10,
    )
    return model, (_images(),)


def build_levit():
    model = LeViT(
        image_size=64,
        num_classes=10,
        dim=(32, 48, 64),
        depth=1,
        heads=(2, 2, 2),
        mlp_mult=2,
        dim_key=16,
        dim_value=16,
    )
    return model, (_images(64),)


def build_cvt():
    model = CvT(
        num_classes=10,
        s1_emb_dim=16,
        s2_emb_dim=32,
        s2_heads=2,
        s2_depth=1,
        s3_emb_dim=48,
        s3_heads=2,
        s3_depth=1,
    )
    return model, (_images(),)


def build_mobile_vit():
    model = MobileViT(
        image_size=(64, 64),
        dims=(32, 48, 64),
        channels=(8, 8, 16, 16, 24, 24, 32, 32, 48, 48, 64),
        num_classes=10,
        depths=(1, 1, 1),
    )
    return model, (_images(64),)


def build_max_vit():
    model = MaxViT(
        num_classes=10,
        dim=16,
        depth=(1, 1),
        dim_head=8,
        dim_conv_stem=16,
        window_size=4,
    )
    return model, (_images(),)


def build_navit():
    model = NaViT(image_size=32, patch_size=8, dim_head=16, token_dropout_prob=0.1, **_TINY)
    images = [[torch.randn(3, 32, 32), torch.randn(3, 16, 32)], [torch.randn(3, 24, 16)]]
    return model, (images,)
