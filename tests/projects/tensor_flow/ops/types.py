from typing import Union

import torch


class Packed:
    pass


Edges = Union[torch.Tensor, Packed]
