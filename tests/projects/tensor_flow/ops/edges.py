from typing import Optional

import torch

from ops.types import Edges, Packed


def kept_edges(edges: Edges, keep: torch.Tensor) -> Edges:
    if isinstance(edges, torch.Tensor):
        return edges[keep]
    return edges


def of_type(edges: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    return edges[keep]


def typed_edges(edges: Edges, types: Optional[torch.Tensor]) -> torch.Tensor:
    if isinstance(edges, Packed):
        types = edges.types()  # unknown: `types` keeps its declared type
    return of_type(edges, types == 1)
