import os
import sys
import types

import torch

# The repository's scripts run from its root (flat imports such as `from layers import ConvNorm`).
# layers.py and stft.py import librosa for the mel filters of the audio front end, which the
# model's forward never calls: a stand-in module keeps the import from failing without it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _name in ("librosa", "librosa.filters", "librosa.util"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["librosa"].filters = sys.modules["librosa.filters"]
sys.modules["librosa"].util = sys.modules["librosa.util"]
sys.modules["librosa.filters"].mel = None
sys.modules["librosa.util"].pad_center = sys.modules["librosa.util"].tiny = None
from model import Decoder, Encoder, Postnet, Tacotron2  # noqa: E402

HPARAMS = types.SimpleNamespace(
    mask_padding=True, fp16_run=False, n_mel_channels=8, n_frames_per_step=1, n_symbols=20,
    symbols_embedding_dim=16, encoder_kernel_size=5, encoder_n_convolutions=2,
    encoder_embedding_dim=16, decoder_rnn_dim=24, prenet_dim=12, max_decoder_steps=3,
    gate_threshold=0.5, p_attention_dropout=0.1, p_decoder_dropout=0.1, attention_rnn_dim=24,
    attention_dim=8, attention_location_n_filters=4, attention_location_kernel_size=5,
    postnet_embedding_dim=16, postnet_kernel_size=5, postnet_n_convolutions=3,
)  # fmt: skip


def probe_tacotron2_inference():
    model = Tacotron2(HPARAMS).eval()
    return model.inference, (torch.randint(0, 20, (1, 7)),)


def probe_encoder_train():
    encoder = Encoder(HPARAMS).train()
    return encoder, (torch.randn(2, 16, 7), torch.tensor([7, 5]))


def probe_encoder_inference():
    encoder = Encoder(HPARAMS).eval()
    return encoder.inference, (torch.randn(1, 16, 7),)


def probe_decoder_inference():
    decoder = Decoder(HPARAMS).eval()
    return decoder.inference, (torch.randn(1, 7, 16),)


def probe_postnet_eval():
    return Postnet(HPARAMS).eval(), (torch.randn(2, 8, 6),)
