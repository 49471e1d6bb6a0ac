import torch

from agents.learner import Learner, centred, scored
from agents.policies import Greedy, Sampled


@torch.compile(backend="eager")
def update(learner, ratio, advantage):
    loss = learner.loss(ratio, advantage)
    kl = (ratio - 1).pow(2).mean()
    if learner.too_far(kl):
        return loss * 0
    return loss * scored(centred, advantage).mean()


def choose(policy, scores):
    actions = policy.act(scores)
    if policy.confident(scores):
        return actions.view(-1)
    return actions.flip(0)


def main():
    learner = Learner(0.2)
    update(learner, torch.rand(4) + 0.5, torch.randn(4))
    choose(Greedy(), torch.randn(2, 3))
    choose(Sampled(1.0), torch.randn(2, 3))
