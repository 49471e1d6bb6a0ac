from torch import Tensor

from .backends import BACKENDS, Backend, get_backend


def pack(tensors: list[Tensor]):
    backend = get_backend(tensors[0])
    return [backend.reshape(tensor, (tensor.shape[0], -1)) for tensor in tensors]


def flat(x: Tensor):
    return BACKENDS["default"].reshape(x, (-1,))


def halves(x: Tensor, backend: Backend):
    return backend.split(x, [1, 1])
