from typing import Union

from torch import Tensor

Scalar = Union[float, Tensor]
