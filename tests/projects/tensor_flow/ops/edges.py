import torch

from ops.types import Edges


def kept_edges(edges: Edges, keep: torch.Tensor) -> Edges:
    if isinstance(edges, torch.Tensor):
        return edges[keep]
    return edges
