"""A tensor's hash under Dynamo: a key and an identity test trace, a number does not."""

import torch


def bucketed(x):
    y = x * 2
    return y + hash(y) % 4  # BREAK BL104


def remembered(x):
    y = x * 2
    key = hash(y)
    seen = {key: y}
    if hash(y) == key and key in seen:
        return seen[key] + 1
    return y


def labelled(x):
    y = x.sum(-1)
    return y, hash(y)  # BREAK BL104


def named(x, name: str):
    return x + hash(name) % 4


compiled_bucketed = torch.compile(bucketed)
compiled_remembered = torch.compile(remembered)
compiled_labelled = torch.compile(labelled)
compiled_named = torch.compile(named)


def probe_hash_arithmetic():
    return bucketed, (torch.randn(4, 3),)


def probe_hash_as_key():
    return remembered, (torch.randn(4, 3),)


def probe_hash_returned():
    return labelled, (torch.randn(4, 3),)


def probe_hash_of_a_string():
    return named, (torch.randn(4, 3), "layer")
