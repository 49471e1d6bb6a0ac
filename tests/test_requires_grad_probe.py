"""What Dynamo 2.13 really does with `.requires_grad_()` (measured for BL503's precision; see
the session 20 precision report): on an input of the compiled function it breaks only where the
call changes the flag, since Dynamo guards on the input's `requires_grad`. normflows'
`x = x.requires_grad_(True)` (residual.py:224) is no break where `x` already requires
gradients (an activation of earlier layers in training), and one where it does not."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")


def _breaks(function, *args) -> list[str]:
    """The first line of each graph break's reason while Dynamo compiles `function` once
    (a recording backend: no inductor)."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    torch.compile(function, backend=lambda gm, inputs: gm.forward)(*args)
    return sorted(reason.splitlines()[0] for reason in counters["graph_break"])


def _turn_on(x):
    x = x.requires_grad_(True)
    return (x * 2).sum()


def _turn_off(x):
    x.requires_grad_(False)
    return x * 2


def _intermediate(x):
    y = x * 1
    y = y.requires_grad_(True)
    return y


UNSUPPORTED = "Unsupported Tensor.requires_grad_() call"


@pytest.mark.parametrize(
    ("function", "requires_grad", "expected"),
    [
        (_turn_on, False, [UNSUPPORTED]),  # the flag changes: a break
        (_turn_on, True, []),  # already requires gradients: Dynamo guards, no break
        (_turn_off, True, [UNSUPPORTED]),
        (_turn_off, False, []),
        # an intermediate the graph returns breaks where the call makes it a leaf that
        # requires gradients; one computed from an input that requires them already does
        (_intermediate, False, ["requires_grad_() intermediate leaked as output"]),
        (_intermediate, True, []),
    ],
)
def test_requires_grad_on_an_input_breaks_only_where_it_changes_the_flag(
    function, requires_grad, expected
) -> None:
    x = torch.randn(3, requires_grad=requires_grad)
    assert _breaks(function, x) == expected
