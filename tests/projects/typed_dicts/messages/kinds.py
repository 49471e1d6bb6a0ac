from typing import TypedDict

import torch
from typing_extensions import NotRequired


class Record(TypedDict):
    value: torch.Tensor


class Message(TypedDict, total=False):
    value: torch.Tensor
    name: str


class Tagged(Record, total=False):
    tag: str


class Note(TypedDict):
    value: torch.Tensor
    note: NotRequired[str]
