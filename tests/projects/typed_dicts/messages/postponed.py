from __future__ import annotations

from typing import NotRequired, TypedDict

import torch


class Late(TypedDict):
    value: torch.Tensor
    note: NotRequired[str]  # a string when the class is made: read as required
