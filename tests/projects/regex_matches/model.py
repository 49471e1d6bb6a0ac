"""Mechanism 4: a regular-expression match's `groupdict()` in compiled code: Dynamo 2.13 folds
a match's methods while tracing and cannot take the dict this one returns ("constant-like
method call with unsupported return type"). The match is known from where it is made: a
pattern `re.compile` made at the top of a helper module of a folder that is no package
(`versions/`), one made in the function, or `re.fullmatch(...)`; `match.group(...)` and a
method of the same name on another object trace."""

import torch
from torch import nn

from versions.parse import by_function, by_local_pattern, by_module_pattern, major, Release


class Scaled(nn.Module):
    def __init__(self, version: str) -> None:
        super().__init__()
        self.version = version

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = by_module_pattern(self.version) + by_local_pattern(self.version)
        scale += by_function(self.version) + major(self.version) + Release().count()
        return x * scale
