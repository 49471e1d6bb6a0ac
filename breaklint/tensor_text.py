"""Names a function's source text uses as only tensors allow, read with regular expressions:
far cheaper than another walk of every function's tree."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from breaklint.knowledge.tensor_facts import (
    SPARSE_FIRST_FUNCTIONS,
    SPARSE_ONLY_METHODS,
    TENSOR_ONLY_METHODS,
)

_TENSOR_ONLY_CALL = re.compile(rf"\.(?:{'|'.join(sorted(TENSOR_ONLY_METHODS))})\(")
_SPARSE_ONLY_CALL = re.compile(rf"\.(?:{'|'.join(sorted(SPARSE_ONLY_METHODS))})\(")
_LIKE_CALL = re.compile(r"_like\(\s*([A-Za-z_]\w*)\s*[,)]")  # literal first: a fast search
# The last part of each SPARSE_FIRST_FUNCTIONS name, and the name passed first to it.
_SPARSE_FIRST_NAMES = frozenset(name.rpartition(".")[2] for name in SPARSE_FIRST_FUNCTIONS)
_SPARSE_FIRST_CALL = re.compile(
    rf"\b({'|'.join(sorted(_SPARSE_FIRST_NAMES))})\(\s*([A-Za-z_]\w*)\s*,"
)
# `lengths[:, None]`, `mask[None]`: a new axis, which a list or a tuple cannot take.
_NEW_AXIS = re.compile(r"\[[^\[\]]*\bNone\b")


def names_used_as_tensors(
    text: str, imports: dict[str, str], words: AbstractSet[str] | None = None
) -> frozenset[str]:
    """Names a function's source uses the way only tensors allow: a tensor-only method called
    on them (`x.unsqueeze(1)`), indexed with a new axis (`x[:, None]`), or passed first to a
    `torch.*_like` function. A parameter of a helper used so is a tensor even though nothing
    declares it, and a compile root's input is one for certain. Read from the text, not the
    tree: a regular-expression pass costs far less than another walk of every function.
    `words`, when given, holds every word of `text` (`index.word_set`): the methods' pattern
    is not searched for where it holds none of them (each search reads the whole text; a
    method's name lies between `.` and `(`, so it is one of the words where it matches)."""
    names: set[str] = set()
    if words is None or not TENSOR_ONLY_METHODS.isdisjoint(words):
        names |= _receivers(_TENSOR_ONLY_CALL, text)
    if "None" in text:  # a substring's search is far faster than the pattern's
        names |= _receivers(_NEW_AXIS, text)
    torch_aliases = {alias for alias, target in imports.items() if target == "torch"}
    for match in _LIKE_CALL.finditer(text):
        callee = _name_before(text, match.start(), dotted=True)
        if callee.partition(".")[0] in torch_aliases:
            names.add(match.group(1))
    return frozenset(names)


def names_used_as_sparse(
    text: str, words: AbstractSet[str] | None = None, imports: dict[str, str] | None = None
) -> frozenset[str]:
    """Names a function's source calls a method on that only sparse tensors have
    (`sparse._indices()`), or passes first to a torch function that multiplies a sparse
    matrix (`torch.spmm(adj, x)`, with `imports` to resolve the module's alias): a parameter
    used so is a sparse tensor wherever it is one at all. `words`: as `names_used_as_tensors`'."""
    names: set[str] = set()
    if words is None or not SPARSE_ONLY_METHODS.isdisjoint(words):
        names |= _receivers(_SPARSE_ONLY_CALL, text)
    if imports and (words is None or not _SPARSE_FIRST_NAMES.isdisjoint(words)):
        for match in _SPARSE_FIRST_CALL.finditer(text):
            head, _, rest = _name_before(text, match.end(1), dotted=True).partition(".")
            target = imports.get(head)
            if target is not None and f"{target}.{rest}".rstrip(".") in SPARSE_FIRST_FUNCTIONS:
                names.add(match.group(2))
    return frozenset(names)


def _receivers(pattern: re.Pattern[str], text: str) -> set[str]:
    """The names right before each match: `x.unsqueeze(`, not `self.x.unsqueeze(`."""
    names = set()
    for match in pattern.finditer(text):
        receiver = _name_before(text, match.start())
        start = match.start() - len(receiver)
        if receiver and text[start - 1 : start] != ".":
            names.add(receiver)
    return names


def _name_before(text: str, end: int, *, dotted: bool = False) -> str:
    """The identifier (or dotted name) that ends at `end` in `text`, or ""."""
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in ("_." if dotted else "_")):
        start -= 1
    name = text[start:end]
    return name if name and (name[0].isalpha() or name[0] == "_") else ""
