from typing import Optional, Union

import torch

from timing.kinds import Scalar


def span(x: torch.Tensor, t0: Optional[Scalar] = 0.0, t1: Optional[Scalar] = 1.0):
    if t0 > t1:
        return x
    return x * float(t1)


def clipped(x: torch.Tensor, clip: Union[float, torch.Tensor] = 40.0):
    if isinstance(clip, torch.Tensor):
        return torch.minimum(x, clip)
    elif clip > 0.0:
        return x.clamp(max=clip)
    return x
