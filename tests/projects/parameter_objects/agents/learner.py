import torch


class Learner:
    def __init__(self, clip):
        self.clip = clip
        self.last = 0.0

    def loss(self, ratio, advantage):
        clipped = torch.clamp(ratio, 1 - self.clip, 1 + self.clip)
        self.last = clipped.mean().item()
        return -torch.min(ratio * advantage, clipped * advantage).mean()

    def too_far(self, kl):
        return kl > 0.02


def centred(x):
    return x - float(x.min())


def scored(score, x):
    return score(x).clamp(0, 1)
