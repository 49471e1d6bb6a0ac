"""A training step compiled whole: the optimizer's `zero_grad` and `step` and a scheduler's
`step` break, whether a module-level name holds them or a parameter is annotated as one; a
method named `step` of anything else traces."""

import torch
from torch import nn

model = nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1)


class Shift:
    def step(self, x):
        return x + 1


shift = Shift()


def train_step(x, y):
    optimizer.zero_grad()  # BREAK BL510
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()  # BREAK BL509
    optimizer.step()  # BREAK BL510
    scheduler.step()  # BREAK BL510
    return shift.step(loss.detach())


def update(optimizer: torch.optim.Optimizer, x):
    optimizer.zero_grad()  # BREAK BL510
    return x * 2


compiled_train_step = torch.compile(train_step)
compiled_update = torch.compile(update)


def probe_training_step():
    return train_step, (torch.randn(3, 4), torch.randn(3, 2))


def probe_annotated_optimizer():
    return update, (optimizer, torch.randn(3))
