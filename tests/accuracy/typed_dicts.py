"""TypedDicts made in compiled code: Dynamo makes one whose keys are all required as the dict it
is, and breaks where one has optional keys (`total=False`, `NotRequired[...]`)."""

from typing import NotRequired, TypedDict

import torch


class Sample(TypedDict, total=False):
    value: torch.Tensor
    weight: float


class Pair(TypedDict):
    first: torch.Tensor
    second: torch.Tensor


class Labelled(Pair):
    label: NotRequired[str]


def weighted(x):
    sample = Sample(value=x * 2, weight=0.5)  # BREAK BL515
    return sample["value"] * sample["weight"]


def paired(x):
    pair = Pair(first=x, second=x + 1)
    return pair["first"] * pair["second"]


def labelled(x):
    pair = Labelled(first=x, second=x - 1, label="l")  # BREAK BL515
    return pair["first"] + pair["second"]


compiled_weighted = torch.compile(weighted)
compiled_paired = torch.compile(paired)
compiled_labelled = torch.compile(labelled)


def probe_weighted():
    return weighted, (torch.randn(4),)


def probe_paired():
    return paired, (torch.randn(4),)


def probe_labelled():
    return labelled, (torch.randn(4),)
