"""demucs (audio source separation research code), tiny, random weights (no pretrained
weights are loaded), on short random stereo waveforms from `torch.randn`: the waveform U-Net
(plain, with a bidirectional LSTM, with local attention and LSTMs in its residual branches),
the hybrid spectrogram/waveform U-Net (complex-as-channels and masking forms), the hybrid
transformer (sinusoidal, CAPE and learned position embeddings, Wiener filtering), a bag of
models applied in overlapping segments with random shifts, the STFT helpers, Wiener
filtering on its own, the training augmentations, and the singular-value penalty."""

import torch
from demucs.apply import BagOfModels, apply_model
from demucs.augment import FlipChannels, FlipSign, Remix, Scale, Shift
from demucs.demucs import Demucs
from demucs.hdemucs import HDemucs
from demucs.htdemucs import HTDemucs
from demucs.spec import ispectro, spectro
from demucs.svd import svd_penalty
from demucs.wiener import wiener

PACKAGES = ("demucs",)
MODES = ("eval", "train")

_SOURCES = ["drums", "bass", "other", "vocals"]
_RATE = 8000


def _mix(seconds: float = 0.5, batch: int = 1) -> torch.Tensor:
    return torch.randn(batch, 2, int(_RATE * seconds))


def _demucs(**options: object) -> Demucs:
    return Demucs(_SOURCES, channels=8, depth=3, samplerate=_RATE, segment=1, **options)


def _hdemucs(**options: object) -> HDemucs:
    # nfft 1024 at depth 4: the frequency branch folds into the time branch as the model needs.
    return HDemucs(_SOURCES, channels=8, depth=4, nfft=1024, samplerate=_RATE, segment=1, **options)


def _htdemucs(**options: object) -> HTDemucs:
    settings: dict[str, object] = {
        "channels": 8,
        "depth": 3,
        "nfft": 512,
        "t_layers": 2,
        "t_heads": 2,
        "samplerate": _RATE,
        "segment": 1,
    }
    return HTDemucs(_SOURCES, **(settings | options))


def build_demucs():
    return _demucs(), (_mix(),)


def build_demucs_blstm():
    return _demucs(lstm_layers=1), (_mix(),)


def build_demucs_attention_lstm_branches():
    # Local attention and LSTMs in the residual branches from the first layer on.
    return _demucs(dconv_attn=1, dconv_lstm=1), (_mix(),)


def build_hdemucs():
    return _hdemucs(), (_mix(),)


def build_hdemucs_masking():
    # Spectrogram masks and Wiener filtering instead of complex-as-channels.
    return _hdemucs(cac=False, wiener_iters=1, end_iters=1), (_mix(),)


def build_htdemucs():
    return _htdemucs(), (_mix(),)


def build_htdemucs_cape():
    return _htdemucs(t_emb="cape", bottom_channels=16), (_mix(),)


def build_htdemucs_scaled_embedding():
    return _htdemucs(t_emb="scaled", t_norm_first=False, t_layer_scale=False), (_mix(),)


def build_htdemucs_wiener():
    return _htdemucs(cac=False, wiener_iters=1, end_iters=1, wiener_residual=True), (_mix(),)


def build_apply_model_bag():
    # Inference only, as apply_model is used: two models in a bag, split into overlapping
    # segments, with random shifts.
    bag = BagOfModels([_demucs(), _htdemucs()], weights=[[1.0, 1.0, 1.0, 1.0]] * 2)
    return apply_model, (bag, _mix(seconds=1.2)), {"shifts": 1, "split": True, "overlap": 0.25}


def build_spectrogram_round_trip():
    def round_trip(wave: torch.Tensor) -> torch.Tensor:
        return ispectro(spectro(wave, n_fft=256, hop_length=64), hop_length=64, length=4000)

    return round_trip, (_mix(),)


def build_wiener():
    frames, bins, channels, sources = 16, 33, 2, 3
    targets = torch.rand(frames, bins, channels, sources)
    mix = torch.randn(frames, bins, channels, 2)  # real and imaginary parts last
    return wiener, (targets, mix), {"iterations": 2, "residual": True}


def build_augmentations():
    augment = torch.nn.Sequential(
        Shift(shift=800), FlipChannels(), FlipSign(), Remix(group_size=2), Scale()
    )
    # Sources stacked: (batch, sources, channels, time).
    return augment, (torch.randn(4, 4, 2, 4000),)


def build_svd_penalty():
    # Every weight counts (min_size 0): the tiny model's layers are under the default size.
    return svd_penalty, (_demucs(),), {"min_size": 0.0, "niters": 2, "proba": 1}


def build_svd_penalty_power_method():
    return svd_penalty, (_demucs(),), {"min_size": 0.0, "powm": True, "conv_only": True}
