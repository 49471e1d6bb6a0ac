"""Mechanism 3: a dict comprehension whose value is a tensor is a dict of tensors, as a
literal's is: `sorted(d.items())` of one made in the function, and of one passed to a class
of another module whose `__init__` hands it to a method; Dynamo 2.13 cannot sort the (name,
tensor) pairs ("sort with non-constant keys"). Not a comprehension of numbers, nor one whose
value is only what its own `for` binds."""

import torch
from torch import nn

from store.bank import Bank


class Model(nn.Module):
    def forward(self, x: torch.Tensor, pairs: list):
        parts = {f"p{i}": x * i for i in range(1, 3)}
        h = x
        for _, part in sorted(parts.items()):
            h = h + part
        scales = {f"s{i}": i * 2 for i in range(1, 3)}
        for _, scale in sorted(scales.items()):
            h = h * scale
        named = {name: value for name, value in pairs}
        for _, value in sorted(named.items()):
            h = h + value
        bank = Bank({f"w{i}": torch.full((4,), float(i)) for i in range(2)})
        return h + bank.total()
