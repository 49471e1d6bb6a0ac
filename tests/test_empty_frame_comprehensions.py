"""What Dynamo 2.13 does with a comprehension whose enclosing frame traced no tensor op
(measured with the recording backend; BL523 flags the frames compiled on their own that it
knows trace no op, tests/test_comprehension_in_empty_frame.py; see issue 20).

A frame Dynamo compiles on its own (a compile root, the function it resumes in after a
graph break) that reaches its `return` with no op in its graph is skipped silently ("No ops
traced for the FX graph", a `SkipFrame` that no break report names) and runs eagerly. Before
Python 3.12 each comprehension in it is a frame of its own, which Dynamo then compiles alone
when it reads a tensor, a container of tensors or a torch module; that frame's only argument
is the iterator of its first iterable, which Dynamo cannot step for a list, a `zip`, a dict or
its views ("Missing tp_iternext", GB4347): that frame is skipped, and reported.

This is how torchsde's `convert_none_to_zeros` (`[... for p, q in zip(sequence, like)]`,
called after the break at `torch.autograd.grad` in `vjp`) is skipped: the resumed frame does
no op when no gradient is None. A comprehension whose element runs an op, or that reads no
tensor, or a generator expression, is not skipped, nor is any of them when the frame traces an
op elsewhere (the comprehension is then inlined into it).
"""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("torch", reason="compiling with Dynamo needs torch")
if sys.version_info[:2] >= (3, 12):
    pytest.skip("Python 3.12 inlines comprehensions (PEP 709)", allow_module_level=True)

import torch

from breaklint.dynamic import torch_shim

SOURCE = """
from collections import OrderedDict

import torch


def pick(parts, order):
    return [parts[i] for i in order]


def pick_and_add(parts, order):
    y = parts[0] + 1
    return [parts[i] for i in order], y


def fill(seq, like):
    return [torch.zeros_like(q) if p is None else p for p, q in zip(seq, like)]


def by_key(d):
    return [d[k] for k in d]


def tensors_of(d):
    return [v for v in d.values() if isinstance(v, torch.Tensor)]


def as_tuple(parts):
    return tuple(p for p in parts)


def by_range(parts, order):
    names = [str(i) for i in order]
    return [parts[i] for i in range(len(order))], names


def grads(x, w):
    out = (x * w).sum()
    g = torch.autograd.grad(out, [x, w])
    return fill(g, [x, w])


def after_break(parts):
    y = parts[0] * 2
    torch._dynamo.graph_break()
    return [torch.neg for p in parts], y
"""


def _run(name: str, *args: object) -> list[tuple[bool, int, str, bool]]:
    """(skipped, line, function, GB4347) for each break Dynamo reported."""
    namespace: dict = {}
    exec(compile(SOURCE, "<empty frames>", "exec", dont_inherit=True), namespace)
    captured = torch_shim.capture(lambda compiled: compiled(*args), namespace[name])
    return [
        (b.skipped, b.frames[-1].line, b.frames[-1].function, "tp_iternext" in b.reason)
        for b in captured.breaks
    ]


def _parts() -> list[torch.Tensor]:
    return [torch.randn(3), torch.randn(3)]


def test_a_frame_with_no_op_skips_its_comprehension_over_a_list() -> None:
    # `pick` itself reports nothing: its own skip ("No ops traced") is silent.
    assert _run("pick", _parts(), [1, 0]) == [(True, 8, "<listcomp>", True)]


def test_one_op_in_the_frame_inlines_the_comprehension() -> None:
    assert _run("pick_and_add", _parts(), [1, 0]) == []


def test_zip_and_dicts_are_not_stepped_either() -> None:
    parts = _parts()
    assert _run("fill", parts, parts) == [(True, 17, "<listcomp>", True)]
    assert _run("by_key", {"a": parts[0], "b": parts[1]}) == [(True, 21, "<listcomp>", True)]
    from collections import OrderedDict

    assert _run("tensors_of", OrderedDict(a=parts[0])) == [(True, 25, "<listcomp>", True)]


def test_an_op_in_the_element_keeps_the_frame() -> None:
    parts = _parts()
    assert _run("fill", [None, parts[1]], parts) == []  # `torch.zeros_like` runs


def test_generator_expressions_and_comprehensions_reading_no_tensor_are_not_skipped() -> None:
    assert _run("as_tuple", _parts()) == []
    assert _run("by_range", _parts(), [1, 0]) == []


def test_the_frame_resumed_after_a_break_skips_likewise() -> None:
    x = torch.randn(3, requires_grad=True)
    w = torch.randn(3, requires_grad=True)
    found = _run("grads", x, w)
    assert found[-1] == (True, 17, "<listcomp>", True)  # in `fill`, which the resume calls
    assert [f for f in found if f[0]] == [found[-1]]
    found = _run("after_break", _parts())
    assert found == [(False, 45, "after_break", False), (True, 46, "<listcomp>", True)]
