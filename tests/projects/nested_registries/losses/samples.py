from functools import partial

import torch


def _kernel(x, name=None):
    return x.sum().item()


def _sinkhorn(x):
    return x.sum().tolist()


# A registry of registries: the loss, then the backend, picks the routine.
routines = {
    "sinkhorn": {"tensorized": _sinkhorn},
    "energy": {"tensorized": partial(_kernel, name="energy")},
}


class SamplesLoss(torch.nn.Module):
    def __init__(self, loss, backend="tensorized"):
        super().__init__()
        self.loss = loss
        self.backend = backend

    def forward(self, x):
        backend = self.backend
        return routines[self.loss][backend](x)
