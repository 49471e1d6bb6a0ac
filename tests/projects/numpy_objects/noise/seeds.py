import numpy.random as npr
import torch


def seeded(h):
    sequence = npr.SeedSequence(entropy=1234, pool_size=4)
    words = sequence.generate_state(2)
    h = h + len(words)
    state = npr.RandomState(1234)
    offset = state.rand(4)
    return h * torch.from_numpy(offset).float()
