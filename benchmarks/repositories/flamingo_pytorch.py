import functools
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from flamingo_pytorch import FlamingoPaLM, GatedCrossAttentionBlock, PerceiverResampler

_DIM, _MEDIA_TOKEN = 32, 3


class PatchEncoder(nn.Module):
    """A stand-in image encoder (the README passes a ViT): images to (batch, patches, dim)."""

    def __init__(self):
        super().__init__()
        self.patches = nn.Conv2d(3, _DIM, 8, stride=8)

    def forward(self, images):
        return self.patches(images).flatten(2).transpose(1, 2)


def _flamingo(**kwargs):
    return FlamingoPaLM(
        dim=_DIM, num_tokens=50, depth=2, dim_head=8, heads=4, media_token_id=_MEDIA_TOKEN,
        cross_attn_every=1, img_encoder=PatchEncoder(), perceiver_num_latents=4,
        perceiver_depth=1, **kwargs,
    )  # fmt: skip


def _text():
    return torch.tensor([[_MEDIA_TOKEN, 5, 6, 7, _MEDIA_TOKEN, 8], [9, _MEDIA_TOKEN, 5, 6, 7, 8]])


def probe_flamingo_text_only():
    return _flamingo().eval(), (_text(),)


def probe_flamingo_images_train():
    model = _flamingo().train()
    return functools.partial(model, images=torch.randn(2, 2, 3, 16, 16)), (_text(),)


def probe_flamingo_videos():
    model = _flamingo(max_video_frames=2).eval()
    return functools.partial(model, videos=torch.randn(2, 2, 2, 3, 16, 16)), (_text(),)


def probe_flamingo_all_media():
    # precomputed `embeds` fail in eager (the forward's assert names an undefined `video`)
    model = _flamingo(only_attend_immediate_media=False).eval()
    return functools.partial(model, images=torch.randn(2, 2, 3, 16, 16)), (_text(),)


def probe_perceiver_resampler():
    resampler = PerceiverResampler(dim=_DIM, depth=2, dim_head=8, heads=4, num_latents=4)
    return resampler, (torch.randn(2, 16, _DIM),)


def probe_gated_cross_attention():
    block = GatedCrossAttentionBlock(dim=_DIM, dim_head=8, heads=4)
    media_locations = _text() == _MEDIA_TOKEN
    return functools.partial(block, media_locations=media_locations), (
        torch.randn(2, 6, _DIM),
        torch.randn(2, 2, 4, _DIM),
    )
