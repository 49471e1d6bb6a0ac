"""What Dynamo 2.13 really does with the text of an int it made symbolic (measured in session 22
on reformer-pytorch: `str(default(key_namespace, ''))` broke the graph in probes with two
reversible blocks, once the layer index passed down as `key_namespace` had taken two values and
Dynamo recompiled the frame with it as a SymInt). `str()` and `repr()` of a symbolic int break
the graph; an f-string and `str.format` of it do not; an int that keeps its value stays a
constant and nothing breaks. Whether an int becomes symbolic depends on the calls, which the
static phase does not see: the fact behind that miss, with no rule for it."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")


def _breaks(function, calls) -> list[str]:
    """The first line of each graph break's reason while Dynamo compiles `function` for each of
    `calls` in turn (a recording backend: no inductor)."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(function, backend=lambda gm, inputs: gm.forward)
    for arguments in calls:
        compiled(*arguments)
    return sorted(reason.splitlines()[0] for reason in counters["graph_break"])


def _with_str(x, index):
    return x * len(str(index))


def _with_repr(x, index):
    return x * len("k" + repr(index))


def _with_f_string(x, index):
    return x * len(f"k:{index}")


def _with_format(x, index):
    return x * len("k:{}".format(index))  # noqa: UP032 - the call form is what is measured


def _with_size_text(x):
    return x * len(str(x.shape[0]))


X = torch.randn(3)
VARYING = [(X, 0), (X, 1), (X, 2)]  # the second call recompiles with `index` symbolic


@pytest.mark.parametrize(
    ("function", "calls", "expected"),
    [
        (_with_str, VARYING, ["Failed to trace builtin operator"]),
        (_with_repr, VARYING, ["repr_impl not implemented"]),
        (_with_f_string, VARYING, []),
        (_with_format, VARYING, []),
        (_with_str, [(X, 0), (X, 0)], []),  # the same value: a constant
        (
            _with_size_text,
            [(torch.randn(3),), (torch.randn(4),), (torch.randn(5),)],
            ["Failed to trace builtin operator"],  # a size made dynamic by a new shape
        ),
        (_with_size_text, [(torch.randn(3),), (torch.randn(3),)], []),
    ],
)
def test_text_of_a_symbolic_int_breaks_only_through_str_and_repr(function, calls, expected):
    assert _breaks(function, calls) == expected
