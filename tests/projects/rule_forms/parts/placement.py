import torch


def zeros_on_cpu(shape):
    with torch.device("cpu"):
        return torch.zeros(shape)


def bucket_of(h):
    return hash(h) % 7
