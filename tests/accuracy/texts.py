"""A tensor written as text: `str()` and `repr()` read its values and break; the text of its
shape or dtype traces."""

import torch


def labelled(x):
    y = x.sum()
    label = "total " + str(y)  # BREAK BL107
    return x * len(label)


def described(x):
    y = x * 2
    text = repr(y)  # BREAK BL107
    return y + len(text)


def typed(x):
    label = str(x.dtype) + str(x.shape) + f"{x.shape[0]}"
    return x * len(label)


def named(x, name: str):
    return x * len(str(name))


compiled_labelled = torch.compile(labelled)
compiled_described = torch.compile(described)
compiled_typed = torch.compile(typed)
compiled_named = torch.compile(named)


def probe_str_of_a_tensor():
    return labelled, (torch.randn(3),)


def probe_repr_of_a_tensor():
    return described, (torch.randn(3),)


def probe_text_of_shape_and_dtype():
    return typed, (torch.randn(3),)


def probe_str_of_a_string():
    return named, (torch.randn(3), "layer")
