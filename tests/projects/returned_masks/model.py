"""Mechanism 2: a boolean tensor a helper of another module returns, read as an index by its
caller: one a torch function of a test makes (`torch.any(...)`, `torch.isfinite(x)`), and one
`|`, `&` and `~` join from such masks (`kept | ~seen`). Dynamo 2.13 breaks at each read
("Dynamic shape operator", `aten.nonzero`)."""

import torch
from torch import nn

from pairs.masks import finite_rows, not_self_pairs, seen


class PairLoss(nn.Module):
    def forward(self, anchors: torch.Tensor, positives: torch.Tensor, labels: torch.Tensor):
        keep = not_self_pairs(anchors, positives, labels)
        anchors = anchors[keep]
        positives = positives[keep]
        near = seen(positives, labels)
        chosen = positives[near]
        rows = finite_rows(anchors)
        return anchors[rows].sum() + chosen.sum()
