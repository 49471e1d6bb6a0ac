import functools
import os
import sys
import types

import torch

# encodec.utils imports torchaudio at module level for file I/O only; the models never call it.
sys.modules.setdefault("torchaudio", types.ModuleType("torchaudio"))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from encodec.model import EncodecModel, LMModel  # noqa: E402
from encodec.quantization import ResidualVectorQuantizer  # noqa: E402


def _codec_24khz():
    return EncodecModel._get_model([1.5, 3.0], 24_000, 1, causal=True, model_norm="weight_norm")


def _codec_48khz():
    return EncodecModel._get_model(
        [3.0, 6.0],
        48_000,
        2,
        causal=False,
        model_norm="time_group_norm",
        audio_normalize=True,
        segment=0.01,
    )


def probe_codec_24khz_eval():
    return _codec_24khz().eval(), (torch.randn(1, 1, 640),)


def probe_codec_48khz_eval():
    model = _codec_48khz().eval()
    model.set_target_bandwidth(6.0)
    return model, (torch.randn(1, 2, 960),)


def probe_encode_24khz():
    return _codec_24khz().eval().encode, (torch.randn(1, 1, 640),)


def probe_quantizer_train():
    quantizer = ResidualVectorQuantizer(
        dimension=16, n_q=4, bins=32, kmeans_init=True, kmeans_iters=2
    )
    return functools.partial(quantizer.train(), frame_rate=75, bandwidth=1.5), (
        torch.randn(2, 16, 12),
    )


def probe_quantizer_eval():
    quantizer = ResidualVectorQuantizer(dimension=16, n_q=4, bins=32)
    return functools.partial(quantizer.eval(), frame_rate=75), (torch.randn(2, 16, 12),)


def probe_lm_eval():
    lm = LMModel(n_q=4, card=32, dim=16, num_layers=2, past_context=8).eval()
    return lm, (torch.randint(0, 32, (1, 4, 6)),)
