"""timm (PyTorch Image Models): model families of different designs through its public
`timm.create_model`, random weights (`pretrained=False`), small inputs: ResNet, EfficientNet,
MobileNetV3, ConvNeXt, RegNet (convolutional), ViT and DeiT with a distillation token
(transformers), Swin (windowed attention), LeViT (convolution + attention), CoAtNet (hybrid)
and MLP-Mixer."""

import timm
import torch

PACKAGES = ("timm",)
MODES = ("eval", "train")


def _model(name: str, size: int = 64, **options: object):
    model = timm.create_model(name, pretrained=False, num_classes=10, **options)
    return model, (torch.randn(2, 3, size, size),)


def build_resnet18():
    return _model("resnet18")


def build_efficientnet_b0():
    return _model("efficientnet_b0")


def build_mobilenetv3_small_050():
    return _model("mobilenetv3_small_050")


def build_convnext_atto():
    return _model("convnext_atto")


def build_regnetx_002():
    return _model("regnetx_002")


def build_vit_tiny():
    return _model("vit_tiny_patch16_224", img_size=64)


def build_deit_tiny_distilled():
    return _model("deit_tiny_distilled_patch16_224", img_size=64)


def build_swin_tiny():
    return _model("swin_tiny_patch4_window7_224", img_size=64, window_size=4)


def build_levit_128s():
    return _model("levit_128s", img_size=64)


def build_coatnet_nano():
    return _model("coatnet_nano_rw_224", img_size=64)


def build_mixer():
    return _model("mixer_s16_224", img_size=64)
