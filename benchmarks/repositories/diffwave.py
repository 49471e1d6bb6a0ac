import functools
import os
import sys
import tempfile
import types

import numpy as np
import torch

# inference.py imports torchaudio for file I/O only; the learner imports the dataset module (also
# torchaudio) and TensorBoard's writer, neither of which a training step calls.
sys.modules.setdefault("torchaudio", types.ModuleType("torchaudio"))
_tensorboard = types.ModuleType("torch.utils.tensorboard")
_tensorboard.SummaryWriter = object
sys.modules.setdefault("torch.utils.tensorboard", _tensorboard)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
from diffwave import inference  # noqa: E402
from diffwave.learner import DiffWaveLearner  # noqa: E402
from diffwave.model import DiffWave  # noqa: E402
from diffwave.params import AttrDict, params  # noqa: E402

_FRAMES, _HOP = 2, 256


def _params(**overrides):
    return AttrDict(params).override(
        dict(
            n_mels=8, residual_layers=4, residual_channels=8, dilation_cycle_length=2,
            noise_schedule=np.linspace(1e-4, 0.05, 10).tolist(),
            inference_noise_schedule=[0.0001, 0.001, 0.01, 0.05], audio_len=_FRAMES * _HOP,
            **overrides,
        )
    )  # fmt: skip


def probe_diffwave_integer_step():
    model = DiffWave(_params()).eval()
    return model, (torch.randn(1, _FRAMES * _HOP), torch.tensor([3]), torch.randn(1, 8, _FRAMES))


def probe_diffwave_fractional_step():
    model = DiffWave(_params()).eval()
    return model, (torch.randn(1, _FRAMES * _HOP), torch.tensor([2.5]), torch.randn(1, 8, _FRAMES))


def probe_diffwave_unconditional_train():
    model = DiffWave(_params(unconditional=True)).train()
    return model, (torch.randn(2, _FRAMES * _HOP), torch.tensor([1, 7]))


def _predict(fast_sampling, unconditional=False):
    # predict() keeps its models in a module-level cache by directory; a model put there
    # beforehand is used without loading weights.
    model_dir = f"tiny-{fast_sampling}-{unconditional}"
    inference.models[model_dir] = DiffWave(_params(unconditional=unconditional)).eval()
    return functools.partial(
        inference.predict, model_dir=model_dir, device=torch.device("cpu"),
        fast_sampling=fast_sampling,
    )  # fmt: skip


def probe_predict_fast():
    return _predict(True), (torch.randn(8, _FRAMES),)


def probe_predict_full_schedule():
    return _predict(False), (torch.randn(1, 8, _FRAMES),)


def probe_predict_unconditional():
    predict = functools.partial(
        _predict(True, unconditional=True), params=_params(unconditional=True)
    )
    return predict, (None,)


def probe_learner_train_step():
    model = DiffWave(_params())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    learner = DiffWaveLearner(
        tempfile.mkdtemp(), model, None, optimizer, _params(),
    )  # fmt: skip
    features = {"audio": torch.randn(2, _FRAMES * _HOP), "spectrogram": torch.randn(2, 8, _FRAMES)}
    return learner.train_step, (features,)
