import torch


def wobble(x):
    print("wobble")  # compiled only by a probe that returns this function of a module beside it
    return torch.sin(x)


def ripple(x):
    print("ripple")  # compiled only by a probe that returns it as `local_ops.ripple`
    return torch.cos(x)
