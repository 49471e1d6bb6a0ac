import torch
from seed_model import Counting, M, show


def probe_seed():
    return M(), (torch.tensor([[1.0]]),)


def probe_hooked():
    model = M()
    model.layer1.register_forward_hook(show)
    return model, (torch.tensor([[1.0]]),)


def probe_counting():
    return Counting(), (torch.ones(2, 3),)
