import torch

from lib import audio


def build_mel():
    return audio.mel, (torch.rand(4),)
