from typing import Union

import torch


class Packed:
    def types(self):
        return None


Edges = Union[torch.Tensor, Packed]
