"""segment-anything (Meta's SAM): a tiny SAM (random weights, 64x64 images; the registry's
`build_sam_vit_*` are 1024-pixel models) through its public classes: the ViT image encoder
(windowed and global attention with relative positions), the prompt encoder (points, boxes and
masks), the mask decoder, `Sam.forward` with point and with box-and-mask prompts, and
`SamPredictor`'s image embedding and prompt prediction. (`SamAutomaticMaskGenerator` is left
out: it needs torchvision's compiled nms op.)"""

from functools import partial

import torch
from segment_anything import SamPredictor
from segment_anything.modeling import (
    ImageEncoderViT,
    MaskDecoder,
    PromptEncoder,
    Sam,
    TwoWayTransformer,
)

PACKAGES = ("segment_anything",)
MODES = ("eval",)

_IMAGE, _PATCH, _DIM = 64, 16, 32
_GRID = _IMAGE // _PATCH


def _image_encoder() -> ImageEncoderViT:
    return ImageEncoderViT(
        img_size=_IMAGE,
        patch_size=_PATCH,
        embed_dim=_DIM,
        depth=2,
        num_heads=2,
        mlp_ratio=2,
        norm_layer=partial(torch.nn.LayerNorm, eps=1e-6),
        qkv_bias=True,
        use_rel_pos=True,
        global_attn_indexes=(1,),
        window_size=2,
        out_chans=_DIM,
    )


def _prompt_encoder() -> PromptEncoder:
    return PromptEncoder(
        embed_dim=_DIM,
        image_embedding_size=(_GRID, _GRID),
        input_image_size=(_IMAGE, _IMAGE),
        mask_in_chans=4,
    )


def _mask_decoder() -> MaskDecoder:
    transformer = TwoWayTransformer(depth=2, embedding_dim=_DIM, mlp_dim=64, num_heads=2)
    return MaskDecoder(transformer_dim=_DIM, transformer=transformer, iou_head_hidden_dim=32)


def _sam() -> Sam:
    return Sam(_image_encoder(), _prompt_encoder(), _mask_decoder())


def _points(batch: int = 1, count: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.rand(batch, count, 2) * _IMAGE, torch.randint(0, 2, (batch, count))


def build_image_encoder():
    return _image_encoder(), (torch.randn(1, 3, _IMAGE, _IMAGE),)


def build_prompt_encoder():
    boxes = torch.tensor([[4.0, 4.0, 40.0, 40.0]])
    masks = torch.randn(1, 1, 4 * _GRID, 4 * _GRID)
    return _prompt_encoder(), (_points(), boxes, masks)


def build_prompt_encoder_points():
    return _prompt_encoder(), (_points(count=3), None, None)


def build_mask_decoder():
    arguments = (
        torch.randn(1, _DIM, _GRID, _GRID),
        torch.randn(1, _DIM, _GRID, _GRID),
        torch.randn(1, 3, _DIM),
        torch.randn(1, _DIM, _GRID, _GRID),
        True,
    )
    return _mask_decoder(), arguments


def build_sam_points():
    coordinates, labels = _points(batch=2)
    batch = [
        {
            "image": torch.rand(3, _IMAGE, 48) * 255,
            "original_size": (96, 72),
            "point_coords": coordinates,
            "point_labels": labels,
        }
    ]
    return _sam(), (batch, True)


def build_sam_box_and_mask():
    batch = [
        {
            "image": torch.rand(3, _IMAGE, _IMAGE) * 255,
            "original_size": (_IMAGE, _IMAGE),
            "boxes": torch.tensor([[4.0, 4.0, 40.0, 40.0]]),
            "mask_inputs": torch.randn(1, 1, 4 * _GRID, 4 * _GRID),
        }
    ]
    return _sam(), (batch, False)


def build_predictor_set_image():
    predictor = SamPredictor(_sam())
    image = torch.rand(1, 3, _IMAGE, _IMAGE) * 255
    return predictor.set_torch_image, (image, (_IMAGE, _IMAGE))


def build_predictor_predict():
    predictor = SamPredictor(_sam())
    predictor.set_torch_image(torch.rand(1, 3, _IMAGE, _IMAGE) * 255, (_IMAGE, _IMAGE))
    coordinates, labels = _points()
    return predictor.predict_torch, (coordinates, labels), {"multimask_output": True}
