import torch


def fill(seq, like):
    return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


def relay(seq, like):
    return fill(seq, like)


def fill_op(seq, like):
    return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


def relay_op(seq, like):
    out = fill_op(seq, like)
    return out, like[0] + 1
