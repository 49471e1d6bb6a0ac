"""transformers: twelve model types of different architectures, built small from their configs
by `breaklint.hf` (random weights, no network): decoders, an encoder, encoder-decoders,
vision, speech, multimodal and mixture-of-experts models."""

import contextlib
import tempfile

from breaklint import hf

PACKAGES = ("transformers",)
MODES = ("eval", "train")


def _model(model_type: str, mode: hf.Mode) -> tuple[object, ...]:
    # `hf.build` takes a name that is also a folder in the working directory for a local
    # model: the probes run in site-packages, where `whisper/` is openai-whisper's package.
    with tempfile.TemporaryDirectory() as empty, contextlib.chdir(empty):
        return hf.build(model_type, mode).as_probe()


def build_gpt2(mode: hf.Mode) -> tuple[object, ...]:
    return _model("gpt2", mode)


def build_llama(mode: hf.Mode) -> tuple[object, ...]:
    return _model("llama", mode)


def build_mixtral(mode: hf.Mode) -> tuple[object, ...]:
    return _model("mixtral", mode)


def build_bert(mode: hf.Mode) -> tuple[object, ...]:
    return _model("bert", mode)


def build_deberta_v2(mode: hf.Mode) -> tuple[object, ...]:
    return _model("deberta-v2", mode)


def build_t5(mode: hf.Mode) -> tuple[object, ...]:
    return _model("t5", mode)


def build_bart(mode: hf.Mode) -> tuple[object, ...]:
    return _model("bart", mode)


def build_vit(mode: hf.Mode) -> tuple[object, ...]:
    return _model("vit", mode)


def build_swin(mode: hf.Mode) -> tuple[object, ...]:
    return _model("swin", mode)


def build_whisper(mode: hf.Mode) -> tuple[object, ...]:
    return _model("whisper", mode)


def build_wav2vec2(mode: hf.Mode) -> tuple[object, ...]:
    return _model("wav2vec2", mode)


def build_clip(mode: hf.Mode) -> tuple[object, ...]:
    return _model("clip", mode)
