"""The kinds of values tensor-ness tells apart, how they combine, and how annotations and the
project-wide analysis hand them over."""

from __future__ import annotations

import ast
from enum import Enum

from breaklint.annotations import Reading, read_annotation


class Kind(Enum):
    TENSOR = "tensor"
    MASK = "mask"  # a boolean tensor: indexing with it gives a data-dependent shape
    SPARSE = "sparse"  # a sparse tensor: Dynamo cannot wrap one
    TENSORS = "tensors"  # a list, tuple or dict of tensors: its truth is its length
    PYTHON = "python"
    UNKNOWN = "unknown"

    @property
    def is_tensor(self) -> bool:
        return self in _TENSOR_KINDS


# A module-level tuple: on Python 3.11 each `Kind.X` read goes through `EnumType.__getattr__`'s
# slot (about 130 ns; the tuple's three, four times this property's own cost), and the rules
# and the facts ask `is_tensor` about every kind they read.
_TENSOR_KINDS = (Kind.TENSOR, Kind.MASK, Kind.SPARSE)


def join(*kinds: Kind) -> Kind:
    """The kind of a value computed from these: any tensor makes a tensor."""
    if any(k.is_tensor for k in kinds):
        return Kind.TENSOR
    if kinds and all(k is Kind.PYTHON for k in kinds):
        return Kind.PYTHON
    return Kind.UNKNOWN


READ_KINDS = {
    Reading.TENSOR: Kind.TENSOR,
    Reading.MASK: Kind.MASK,
    Reading.TENSORS: Kind.TENSORS,
    Reading.PYTHON: Kind.PYTHON,
    Reading.MAYBE: Kind.UNKNOWN,
}
# How the analysis hands parameter kinds over (`ScopedFunction.parameter_kinds`).
HANDED_KINDS = {
    "tensor": Kind.TENSOR,
    "mask": Kind.MASK,
    "sparse": Kind.SPARSE,
    "maybe-sparse": Kind.SPARSE,  # from some caller only: a guess
    "maybe": Kind.TENSOR,
    "tensors": Kind.TENSORS,
    "python": Kind.PYTHON,
    "none": Kind.PYTHON,  # `None` from every caller
    # A constant every caller passes, by its truth (`strict=False`)
    "true": Kind.PYTHON,
    "false": Kind.PYTHON,
    "unknown": Kind.UNKNOWN,
}

# What a project call returns: a maybe is no tensor to build a certain finding on.
RETURNED_KINDS = {**HANDED_KINDS, "maybe": Kind.UNKNOWN}


def annotation_kind(
    annotation: ast.expr | None, aliases: dict[str, str] | None = None
) -> Kind | None:
    """The kind an annotation declares (UNKNOWN for a union of tensors and other values),
    None when absent."""
    reading = read_annotation(annotation, aliases)
    return None if reading is None else READ_KINDS[reading]
