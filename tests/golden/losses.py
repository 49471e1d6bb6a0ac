import logging

import torch
import torch.nn.functional as F
from torch import nn

logger = logging.getLogger(__name__)


def label_smoothing_loss(logits, target, smoothing=0.1):
    log_probs = F.log_softmax(logits, dim=-1)
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    smooth = -log_probs.mean(dim=-1)
    loss = (1 - smoothing) * nll + smoothing * smooth
    if loss.mean().item() > 10:
        logger.warning("loss is large: %s", loss.mean())
    return loss.mean()


def unused_helper(x):
    print(x.item())


class Classifier(nn.Module):
    def __init__(self, dim: int, classes: int) -> None:
        super().__init__()
        self.head = nn.Linear(dim, classes)

    def forward(self, x, target=None):
        logits = self.head(x)
        if target is None:
            return logits
        return logits, label_smoothing_loss(logits, target)
