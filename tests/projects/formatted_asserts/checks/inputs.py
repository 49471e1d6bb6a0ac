from typing import List, Tuple

import torch


def validate(tensors: List[torch.Tensor], data_range: Tuple[float, float] = (0.0, 1.0)) -> None:
    for t in tensors:
        assert t.dim() == 2, f"expected 2 dimensions, got {t.dim()}"
        assert data_range[0] <= t.min(), f"expected values from {data_range[0]}, got {t.min()}"


def finite(x: torch.Tensor) -> None:
    assert torch.isfinite(x).all(), "expected finite values"


def positive(x: torch.Tensor, name: str) -> None:
    assert x.min() > 0, "%s must be positive" % name
