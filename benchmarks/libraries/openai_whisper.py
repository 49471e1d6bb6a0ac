"""openai-whisper: a tiny Whisper (random weights, the multilingual vocabulary the package ships,
so its tokenizer works offline) through its public API: the model's forward, the audio encoder,
the text decoder with the package's key-value cache hooks, the log-mel spectrogram, language
detection, and greedy and beam-search decoding of a short spectrogram. (`transcribe` is left
out: it cuts audio into 30-second windows, which needs the full-size encoder context.)"""

import torch
import whisper
from whisper.model import ModelDimensions, Whisper

PACKAGES = ("whisper",)
MODES = ("eval",)

_AUDIO_CONTEXT = 16  # encoder positions; the spectrogram has twice as many frames


def _model() -> Whisper:
    dimensions = ModelDimensions(
        n_mels=80,
        n_audio_ctx=_AUDIO_CONTEXT,
        n_audio_state=32,
        n_audio_head=2,
        n_audio_layer=2,
        n_vocab=51865,
        n_text_ctx=32,
        n_text_state=32,
        n_text_head=2,
        n_text_layer=2,
    )
    return Whisper(dimensions)


def _mel(batch: int = 2) -> torch.Tensor:
    return torch.randn(batch, 80, 2 * _AUDIO_CONTEXT)


def build_model_forward():
    return _model(), (_mel(), torch.randint(0, 51865, (2, 8)))


def build_audio_encoder():
    return _model().encoder, (_mel(),)


def build_text_decoder_kv_cache():
    model = _model()
    cache, _hooks = model.install_kv_cache_hooks()
    features = torch.randn(2, _AUDIO_CONTEXT, 32)
    return model.decoder, (torch.randint(0, 51865, (2, 4)), features), {"kv_cache": cache}


def build_log_mel_spectrogram():
    return whisper.log_mel_spectrogram, (torch.randn(4000),)


def build_detect_language():
    return whisper.detect_language, (_model(), _mel())


def build_greedy_decode():
    options = whisper.DecodingOptions(language="en", sample_len=4, fp16=False)
    return whisper.decode, (_model(), _mel(), options)


def build_beam_search_decode():
    options = whisper.DecodingOptions(language="en", sample_len=4, beam_size=2, fp16=False)
    return whisper.decode, (_model(), _mel(1), options)
