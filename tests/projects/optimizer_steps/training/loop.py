"""A training step compiled whole: the optimizer and the scheduler are torch's, made in
`__init__` or at module level; the `step` of a project object is traced."""

import torch
from torch import nn, optim

probe_net = nn.Linear(4, 2)
sgd = optim.SGD(probe_net.parameters(), lr=0.1)
schedule = optim.lr_scheduler.StepLR(sgd, 10)


class Counter:
    def __init__(self):
        self.count = torch.zeros(())

    def step(self, loss):
        self.count += loss.detach()


class Trainer:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
        self.counter = Counter()

    def train_step(self, x, y):
        loss = nn.functional.mse_loss(self.net(x), y)
        self.opt.zero_grad()
        grads = torch.autograd.grad(loss, list(self.net.parameters()))
        for p, g in zip(self.net.parameters(), grads):
            p.grad = g
        self.opt.step()
        self.counter.step(loss)
        return loss


def sgd_step(x, y):
    loss = nn.functional.mse_loss(probe_net(x), y)
    sgd.zero_grad()
    grads = torch.autograd.grad(loss, list(probe_net.parameters()))
    for p, g in zip(probe_net.parameters(), grads):
        p.grad = g * 1.0
    sgd.step()
    y = y * 2
    schedule.step()
    return loss + y.sum()


compiled_train_step = torch.compile(Trainer.train_step)
compiled_sgd_step = torch.compile(sgd_step)
